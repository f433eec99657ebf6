// Audit operations: GET /audit and GET /audit/:entityType/:entityId (audit:read).
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { pageInput } from '../../graphql/zod-args.js';
import { listAuditEntries, type AuditEntryView } from './service.js';
import { ActorKindEnum } from '../orders/types.js';

/** The spec's audit limit: default 50, at most 100. */
export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;

export const AuditEntryRef = builder.objectRef<AuditEntryView>('AuditEntry').implement({
  description:
    'One privileged write: who did it (actor), what (event, entity), the state before and after where it makes sense, and ' +
    'the request. Written in the same transaction as the write.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    event: t.exposeString('event', { description: 'Dotted, e.g. settings.update, pricing.create, orders.statusChange' }),
    entityType: t.exposeString('entityType', { description: 'e.g. settings, price, promotion, catalog_entity, inventory' }),
    entityId: t.exposeString('entityId', {
      nullable: true,
      description: 'Id of the entity changed: a UUID for most entity types, a name for some (a settings group, a module), so String',
    }),
    actorId: t.exposeString('actorId', { nullable: true, description: 'User id (for an API key, the user it was minted for); null for the system' }),
    actorType: t.field({ type: ActorKindEnum, resolve: (a) => a.actorType as never }),
    apiKeyId: t.exposeString('apiKeyId', { nullable: true }),
    before: t.expose('before', { type: 'JSON', nullable: true }),
    after: t.expose('after', { type: 'JSON', nullable: true }),
    requestId: t.exposeString('requestId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const AuditPage = pageOf('AuditEntry', AuditEntryRef);
const access = { permission: 'audit:read' } as const;
const window = {
  event: z.string().min(1).max(100).optional().describe('Dotted event name, e.g. settings.update'),
  actorId: z.string().min(1).max(100).optional(),
  from: z.coerce.date().optional().describe('ISO 8601, inclusive'),
  to: z.coerce.date().optional().describe('ISO 8601, inclusive'),
  ...pageInput(AUDIT_PAGE.defaultLimit, AUDIT_PAGE.maxLimit),
};
const refineWindow = (input: { from?: Date; to?: Date }) => (input.from && input.to && input.to < input.from ? [{ field: 'to', message: 'must not be before from' }] : []);

defineOperation({
  name: 'auditEntries',
  kind: 'query',
  summary: 'Query the audit log, newest first',
  description: `Filters: entityType, entityId, event, actorId, from, to. \`limit\` default ${AUDIT_PAGE.defaultLimit}, at most ${AUDIT_PAGE.maxLimit}.`,
  rest: { method: 'GET', path: '/audit' },
  access,
  input: {
    entityType: z.string().min(1).max(100).optional(),
    entityId: z.string().min(1).max(200).optional().describe('Id of the entity changed: a UUID for most entity types, a name for some (a settings group, a module), so String'),
    ...window,
  },
  refine: refineWindow,
  output: AuditPage,
  paginated: true,
  resolve: (ctx, input) => listAuditEntries(ctx, input),
});

defineOperation({
  name: 'auditEntityHistory',
  kind: 'query',
  summary: 'The audit history of one entity, newest first',
  description: `Same filters as GET /audit for event, actor and time. \`limit\` default ${AUDIT_PAGE.defaultLimit}, at most ${AUDIT_PAGE.maxLimit}.`,
  rest: { method: 'GET', path: '/audit/:entityType/:entityId' },
  access,
  input: {
    entityType: z.string().min(1).max(100),
    entityId: z.string().min(1).max(200).describe('Id of the entity changed: a UUID for most entity types, a name for some (a settings group, a module), so String'),
    ...window,
  },
  refine: refineWindow,
  output: AuditPage,
  paginated: true,
  resolve: (ctx, input) => listAuditEntries(ctx, input),
});
