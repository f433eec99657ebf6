// Catalog events. Written to the outbox in the transaction of the change (src/events/outbox.ts),
// so subscribers and webhooks see them only after commit and never for a rolled-back write.
//   catalog.create  entity created
//   catalog.update  entity or anything it embeds changed (fields, status moves, attributes,
//                   custom fields, categories, brands, options, variants); `changes` names what
//   catalog.delete  entity deleted
import type { Tx } from '../../db/client.js';
import type { CatalogEntity } from '../../generated/prisma/client.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import type { CatalogCtx } from './shared.js';
import { entityPayload, type CatalogEntityPayload } from './views.js';

declare module '../../events/registry.js' {
  interface EventPayloads {
    'catalog.create': { entity: CatalogEntityPayload };
    'catalog.update': { entity: CatalogEntityPayload; changes: string[] };
    'catalog.delete': { entity: CatalogEntityPayload };
  }
}

function origin(ctx: CatalogCtx) {
  return originOf({ organization: ctx.organization, actor: ctx.actor, requestId: ctx.requestId });
}

export function emitCreated(tx: Tx, ctx: CatalogCtx, entity: CatalogEntity): Promise<void> {
  return recordEvent(tx, origin(ctx), 'catalog.create', { entity: entityPayload(entity) });
}

export function emitDeleted(tx: Tx, ctx: CatalogCtx, entity: CatalogEntity): Promise<void> {
  return recordEvent(tx, origin(ctx), 'catalog.delete', { entity: entityPayload(entity) });
}

/** catalog.update for a change to the entity or its parts; also bumps the entity's updatedAt. */
export async function emitUpdated(tx: Tx, ctx: CatalogCtx, entityId: string, changes: string[], entity?: CatalogEntity): Promise<CatalogEntity> {
  const current = entity ?? (await tx.catalogEntity.update({ where: { id: entityId, organizationId: ctx.organization.id }, data: { updatedAt: new Date() } }));
  await recordEvent(tx, origin(ctx), 'catalog.update', { entity: entityPayload(current), changes });
  return current;
}
