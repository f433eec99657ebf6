// The payment webhook receiver: POST /api/payments/webhook (raw route: the signature covers the
// exact bytes) and its GraphQL twin, which takes the same raw payload and signature as strings.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { defineRawRoute } from '../../http/raw-routes.js';
import { SIGNATURE_HEADER } from './signature.js';
import { receiveWebhook, type WebhookReceipt } from './webhook.js';

const WebhookReceiptRef = builder.objectRef<WebhookReceipt>('PaymentWebhookReceipt').implement({
  fields: (t) => ({
    received: t.exposeBoolean('received'),
    duplicate: t.exposeBoolean('duplicate', { description: 'The event id was processed before; nothing changed' }),
    eventId: t.exposeString('eventId', { description: "The provider's event id (e.g. evt_...; not a UUID)" }),
    type: t.exposeString('type'),
    outcome: t.exposeString('outcome', { description: 'confirmed, paid, recorded, duplicate or ignored: <why>' }),
    orderId: t.field({ type: 'UUID', nullable: true, description: 'The order named by the event (data.object.metadata.orderId), if any', resolve: (r) => r.orderId }),
  }),
});

const DESCRIPTION =
  'Verifies the Stripe-Signature header (t=<unix>,v1=<hex HMAC-SHA256 of "t.<raw body>"> with the webhook secret, STRIPE_WEBHOOK_SECRET; ' +
  '5 minutes tolerance) — a missing or bad signature is 400 and changes nothing. Each event id is processed once. ' +
  'payment_intent.succeeded with data.object.metadata.orderId moves that order from pending (awaiting payment) to confirmed. ' +
  'An event for an order not found (yet) is 404 and not recorded, so the provider retries it.';

defineOperation({
  name: 'paymentWebhookReceive',
  kind: 'mutation',
  summary: 'Receive a payment-provider event (the raw payload and its Stripe-Signature header value)',
  description: `${DESCRIPTION} REST: POST /api/payments/webhook with the raw body.`,
  access: 'public',
  input: { payload: z.string().min(2).max(1024 * 1024).describe('The raw JSON body exactly as signed'), signature: z.string().min(1).max(2000).describe('The Stripe-Signature header value') },
  output: WebhookReceiptRef,
  resolve: (ctx, input) => receiveWebhook(ctx, input.payload, input.signature),
});

defineRawRoute({
  method: 'POST',
  path: '/payments/webhook',
  access: 'public',
  openapi: {
    operationId: 'paymentWebhook',
    summary: 'Receives raw payloads from the configured payment adapter',
    description: `${DESCRIPTION} GraphQL twin: \`mutation { paymentWebhookReceive }\`.`,
    tags: ['payments'],
    parameters: [{ name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A Stripe Event', properties: { id: { type: 'string' }, type: { type: 'string' }, data: { type: 'object' } } } } } },
    responses: {
      200: { description: 'Received', content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'object', properties: { received: { type: 'boolean' }, duplicate: { type: 'boolean' }, eventId: { type: 'string' }, type: { type: 'string' }, outcome: { type: 'string' }, orderId: { type: 'string', format: 'uuid', nullable: true } } } } } } } },
      400: { description: 'Missing or invalid signature (BAD_REQUEST)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } },
      404: { description: 'The order of the event is not known (yet); retried by the provider (NOT_FOUND)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } },
    },
  },
  async handle(ctx) {
    const receipt = await receiveWebhook(ctx, await ctx.request.text(), ctx.request.headers.get(SIGNATURE_HEADER));
    return new Response(JSON.stringify({ data: receipt }), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
  },
});
