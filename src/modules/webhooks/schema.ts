// Outbound webhooks (webhooks:manage): register, list and delete endpoints; list deliveries and
// their attempts; redeliver. Importing this module also registers the `webhooks/deliver` task
// and the fan-out subscriber (deliver.ts).
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { pageInput } from '../../graphql/zod-args.js';
import './deliver.js';
import {
  createEndpoint,
  deleteEndpoint,
  DELIVERY_STATUSES,
  getDelivery,
  listAttempts,
  listDeliveries,
  listEndpoints,
  redeliver,
  type CreatedEndpoint,
  type PublicEndpoint,
} from './service.js';
import { defineEnum } from '../../graphql/enums.js';
const DeliveryStatusEnum = defineEnum('WebhookDeliveryStatus', DELIVERY_STATUSES, 'State of a webhook delivery.');

const EVENTS_DESCRIPTION = 'Event names this endpoint receives (orders.create, catalog.update, ...), or * for all';

export const WebhookEndpointRef = builder.objectRef<PublicEndpoint>('WebhookEndpoint').implement({
  description: 'An outbound webhook endpoint. Its signing secret is shown only once, when it is registered.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    url: t.exposeString('url'),
    events: t.exposeStringList('events', { description: EVENTS_DESCRIPTION }),
    description: t.exposeString('description', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WebhookEndpointCreatedRef = builder.objectRef<CreatedEndpoint>('WebhookEndpointCreated').implement({
  description: 'A newly registered endpoint, with its signing secret: store it now, it is never shown again.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    url: t.exposeString('url'),
    events: t.exposeStringList('events', { description: EVENTS_DESCRIPTION }),
    description: t.exposeString('description', { nullable: true }),
    secret: t.exposeString('secret', {
      description:
        'Standard Webhooks signing secret (whsec_ + base64 key). Each delivery carries webhook-id, webhook-timestamp and ' +
        'webhook-signature = "v1," + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" keyed with the decoded secret.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const WebhookDeliveryRef = builder.prismaObject('WebhookDelivery', {
  description: 'One event sent to one endpoint. Its id is the webhook-id header, the same on every attempt and redelivery.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    endpointId: t.expose('endpointId', { type: 'UUID' }),
    eventId: t.expose('eventId', { type: 'UUID' }),
    eventType: t.exposeString('eventType'),
    payload: t.expose('payload', { type: 'JSON', description: 'The body sent: { id, type, createdAt, organizationId, data }' }),
    status: t.field({ type: DeliveryStatusEnum, description: 'pending: queued or retrying', resolve: (d) => d.status as never }),
    attempts: t.exposeInt('attempts', { description: 'HTTP attempts made so far' }),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WebhookDeliveryAttemptRef = builder.prismaObject('WebhookDeliveryAttempt', {
  description: 'One HTTP attempt of a delivery.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    deliveryId: t.expose('deliveryId', { type: 'UUID' }),
    attempt: t.exposeInt('attempt', { description: '1 for the first attempt of the delivery' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: 'Null when no HTTP response came back' }),
    durationMs: t.exposeInt('durationMs'),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: 'The first 1000 characters of the response body' }),
    error: t.exposeString('error', { nullable: true, description: 'Network error, timeout or refused target' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const access = { permission: 'webhooks:manage' } as const;

defineOperation({
  name: 'webhookEndpointCreate',
  kind: 'mutation',
  summary: 'Register a webhook endpoint; the response holds its signing secret, shown only this once',
  description: 'The URL must be http(s) and, unless webhooks.allowPrivateTargets is set, resolve to public addresses only.',
  rest: { method: 'POST', path: '/webhooks', status: 201 },
  access,
  input: {
    url: z.string().min(1).max(2048).describe('http(s) URL that receives POSTs'),
    events: z.array(z.string().min(1).max(100)).min(1).max(50).describe(EVENTS_DESCRIPTION),
    description: z.string().max(500).optional(),
  },
  output: WebhookEndpointCreatedRef,
  resolve: (ctx, input) => createEndpoint(ctx, input),
});

defineOperation({
  name: 'webhookEndpoints',
  kind: 'query',
  summary: 'Webhook endpoints of the organization (without secrets)',
  rest: { method: 'GET', path: '/webhooks' },
  access,
  input: pageInput(20, 100),
  output: pageOf('WebhookEndpoint', WebhookEndpointRef),
  paginated: true,
  resolve: (ctx, input) => listEndpoints(ctx, input),
});

defineOperation({
  name: 'webhookEndpointDelete',
  kind: 'mutation',
  summary: 'Delete a webhook endpoint and its delivery history; returns what was deleted',
  rest: { method: 'DELETE', path: '/webhooks/:id' },
  access,
  input: { id: z.guid() },
  output: WebhookEndpointRef,
  resolve: (ctx, input) => deleteEndpoint(ctx, input.id),
});

defineOperation({
  name: 'webhookDeliveries',
  kind: 'query',
  summary: 'Webhook deliveries of the organization, newest first',
  rest: { method: 'GET', path: '/webhooks/deliveries' },
  access,
  input: {
    endpointId: z.guid().optional(),
    status: z.enum(DELIVERY_STATUSES).optional().describe('pending, succeeded or failed'),
    eventType: z.string().max(100).optional(),
    ...pageInput(20, 100),
  },
  output: pageOf('WebhookDelivery', WebhookDeliveryRef),
  paginated: true,
  resolve: (ctx, input) => listDeliveries(ctx, input),
});

defineOperation({
  name: 'webhookDelivery',
  kind: 'query',
  summary: 'One webhook delivery',
  rest: { method: 'GET', path: '/webhooks/deliveries/:id' },
  access,
  input: { id: z.guid() },
  output: WebhookDeliveryRef,
  resolve: (ctx, input) => getDelivery(ctx, input.id),
});

defineOperation({
  name: 'webhookDeliveryAttempts',
  kind: 'query',
  summary: 'Every HTTP attempt of a delivery: status, duration, response excerpt',
  rest: { method: 'GET', path: '/webhooks/deliveries/:id/attempts' },
  access,
  input: { id: z.guid(), ...pageInput(20, 100) },
  output: pageOf('WebhookDeliveryAttempt', WebhookDeliveryAttemptRef),
  paginated: true,
  resolve: (ctx, input) => listAttempts(ctx, input),
});

defineOperation({
  name: 'webhookDeliveryRedeliver',
  kind: 'mutation',
  summary: 'Send a finished (failed or succeeded) delivery again, with the same webhook-id',
  rest: { method: 'POST', path: '/webhooks/deliveries/:id/redeliver' },
  access,
  input: { id: z.guid() },
  output: WebhookDeliveryRef,
  resolve: (ctx, input) => redeliver(ctx, input.id),
});
