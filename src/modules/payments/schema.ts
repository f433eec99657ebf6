// Payment operations: capture and void of an order's authorizations, confirming a payment that
// required the shopper's action, retrying a refund the provider refused, and the provider
// webhooks (raw routes: signatures cover the exact bytes) with their GraphQL twin.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { defineRawRoute } from '../../http/raw-routes.js';
import { OrderRef, OrderRefundRef } from '../orders/types.js';
import { retryRefund } from '../orders/refunds.js';
import { PERMISSION as ORDER_PERMISSION } from '../orders/shared.js';
import { captureOrder, voidOrder, type CaptureOutcome } from './capture.js';
import { confirmPayment } from './confirm.js';
import { PaymentRef } from './graph.js';
import { PAYMENTS_MANAGE } from './permissions.js';
import { SIGNATURE_HEADER } from './signature.js';
import { receiveWebhook, type WebhookReceipt, type WebhookResult } from './webhook.js';
import './offline.route.js';
import './tasks.js';

const orderId = z.string().min(1).max(64).describe('Order UUID or number (ORD-YYYY-NNNNNN)');

const PaymentsOutcomeRef = builder.objectRef<CaptureOutcome>('OrderPaymentsResult').implement({
  description: 'The order after a capture or void, and its payments.',
  fields: (t) => ({
    order: t.expose('order', { type: OrderRef }),
    payments: t.expose('payments', { type: [PaymentRef] }),
    captured: t.expose('captured', { type: 'MinorUnits', description: 'What this call captured (0 for a void)' }),
  }),
});

defineOperation({
  name: 'orderCapture',
  kind: 'mutation',
  summary: "Capture an order's authorized payments (all or part)",
  description:
    "Captures `amount` (minor units; default everything authorized and not captured) of the order's authorized payments, oldest first. " +
    'Several partial captures are allowed up to what was authorized; the last one (the amount that is left) closes the authorization. ' +
    'More than is capturable is 422; nothing capturable (not authorized yet, captured, voided) is 409; a refusal by the provider is 409 with ' +
    "details.reason (the provider's code); an unreachable provider is 503 and records nothing (retrying is safe: the provider call carries " +
    "the same idempotency key until its answer is recorded). The order's paymentStatus becomes paid (or partially_paid).",
  rest: { method: 'POST', path: '/orders/:id/capture' },
  access: { permission: PAYMENTS_MANAGE },
  input: { id: orderId, amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional().describe('Minor units to capture; default all that is capturable') },
  output: PaymentsOutcomeRef,
  resolve: (ctx, input) => captureOrder(ctx, input.id, input.amount),
  audit: { event: 'orders.capture', entityType: 'order', entityId: (_input, result) => result.order.id },
});

defineOperation({
  name: 'orderVoid',
  kind: 'mutation',
  summary: "Void an order's authorizations that captured nothing",
  description:
    "Releases the authorization of every payment of the order that captured nothing (pending, requires_action, authorized); the order's " +
    'paymentStatus becomes voided. The order itself is not cancelled (PATCH its status to cancelled for that, which also voids). A partially ' +
    'captured payment cannot be voided (409); nothing to void is 409; a provider refusal is 409 with details.reason.',
  rest: { method: 'POST', path: '/orders/:id/void' },
  access: { permission: PAYMENTS_MANAGE },
  input: { id: orderId },
  output: PaymentsOutcomeRef,
  resolve: (ctx, input) => voidOrder(ctx, input.id),
  audit: { event: 'orders.void', entityType: 'order', entityId: (_input, result) => result.order.id },
});

defineOperation({
  name: 'paymentConfirm',
  kind: 'mutation',
  summary: "Complete a payment that required the shopper's action (3-D Secure, a redirect)",
  description:
    'After the shopper comes back to the return URL, the storefront posts the query parameters it received (params). The provider is asked ' +
    "for the payment's state (the parameters are not trusted): authorized or captured confirms the order; failed cancels it and releases its " +
    'stock; still requires_action answers the nextAction again. A payment that no longer waits answers its current state (200). Anyone holding ' +
    'the payment id may call it (it is only known to the checkout that created it and moves nothing the provider did not approve).',
  rest: { method: 'POST', path: '/payments/:id/confirm' },
  access: 'public',
  input: {
    id: z.guid().describe("Payment UUID (the checkout answer's payment.id)"),
    params: z.record(z.string().max(100), z.string().max(4000)).optional().describe("The return URL's query parameters"),
  },
  output: PaymentRef,
  resolve: (ctx, input) => confirmPayment(ctx, input.id, input.params ?? {}),
});

defineOperation({
  name: 'orderRefundRetry',
  kind: 'mutation',
  summary: 'Retry a refund the payment provider refused',
  description:
    'Only a failed refund (409 otherwise). Its quantities and amount are taken again (422 if the order no longer has them) and it is paid out ' +
    'at once through the payments it was allocated to; the provider is asked anew (a new idempotency key for the refused part). A refusal ' +
    "leaves it failed again with the order's amounts unchanged.",
  rest: { method: 'POST', path: '/orders/:id/refunds/:refundId/retry' },
  access: { permission: [ORDER_PERMISSION.update, PAYMENTS_MANAGE] },
  input: { id: orderId, refundId: z.guid() },
  output: OrderRefundRef,
  resolve: (ctx, input) => retryRefund(ctx, input.id, input.refundId),
  audit: { event: 'orders.refundRetry', entityType: 'order', entityId: (_input, refund) => refund.orderId },
});

// ── webhooks ──

const WebhookReceiptRef = builder.objectRef<WebhookReceipt>('PaymentWebhookReceipt').implement({
  fields: (t) => ({
    received: t.exposeBoolean('received'),
    duplicate: t.exposeBoolean('duplicate', { description: 'The event id was processed before; nothing changed' }),
    eventId: t.exposeString('eventId', { description: "The provider's event id (e.g. evt_...; not a UUID)" }),
    type: t.exposeString('type', { description: "The provider's event type" }),
    outcome: t.exposeString('outcome', {
      description: 'confirmed, paid, partially_paid, authorized, failed, cancelled, voided, expired, refunded, refund_failed, recorded, duplicate or ignored: <why>',
    }),
    orderId: t.expose('orderId', { type: 'UUID', nullable: true, description: 'The order of the event, if any' }),
    paymentId: t.expose('paymentId', { type: 'UUID', nullable: true, description: 'The payment the event moved, if any' }),
  }),
});

const DESCRIPTION =
  'The provider verifies the raw body with its own signature scheme (Stripe and the offline provider: the Stripe-Signature header, ' +
  't=<unix>,v1=<hex HMAC-SHA256 of "t.<raw body>"> with STRIPE_WEBHOOK_SECRET, 5 minutes tolerance) — a missing or bad signature is 400 and ' +
  "changes nothing. Each event id is processed once (a duplicate is acknowledged). Events move the payment they name (by the provider's " +
  'reference) forward only — authorized, captured, failed, voided, expired, refunded — and confirm an order awaiting payment once its ' +
  'payments cover the total. An event for an order not found (yet) is 404 and not recorded, so the provider retries it.';

defineOperation({
  name: 'paymentWebhookReceive',
  kind: 'mutation',
  summary: 'Receive a payment-provider event (the raw payload and its signature header value)',
  description: `${DESCRIPTION} REST: POST /api/payments/webhook (the default provider) or /api/payments/webhook/{provider} with the raw body. The answer is the first event's receipt.`,
  access: 'public',
  input: {
    payload: z
      .string()
      .min(2)
      .max(1024 * 1024)
      .describe('The raw body exactly as signed'),
    signature: z.string().min(1).max(2000).describe("The provider's signature header value (Stripe-Signature for Stripe and offline)"),
    provider: z.string().min(1).max(50).optional().describe('An enabled provider; default the default provider'),
  },
  output: WebhookReceiptRef,
  resolve: async (ctx, input) => {
    const provider = input.provider ?? ctx.services.payments.provider.name;
    const header = (ctx.services.payments.providers.get(provider) as { signatureHeader?: string } | undefined)?.signatureHeader ?? SIGNATURE_HEADER;
    const result = await receiveWebhook(ctx, input.provider ?? null, input.payload, { [header]: input.signature });
    return result.receipts[0] ?? { received: true, duplicate: false, eventId: '', type: '', outcome: 'ignored: no event', orderId: null, paymentId: null };
  },
});

function webhookAnswer(result: WebhookResult): Response {
  if (result.acknowledgement)
    return new Response(result.acknowledgement.body, { status: result.acknowledgement.status, headers: { 'content-type': result.acknowledgement.contentType } });
  return new Response(JSON.stringify({ data: result.receipts[0] ?? null }), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

function headersOf(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => (headers[key.toLowerCase()] = value));
  return headers;
}

const receiptSchema = {
  type: 'object',
  properties: {
    received: { type: 'boolean' },
    duplicate: { type: 'boolean' },
    eventId: { type: 'string' },
    type: { type: 'string' },
    outcome: { type: 'string' },
    orderId: { type: 'string', format: 'uuid', nullable: true },
    paymentId: { type: 'string', format: 'uuid', nullable: true },
  },
};
const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };
const webhookResponses = {
  200: {
    description: "Received: our receipt of the (first) event, or the provider's expected acknowledgement (text)",
    content: { 'application/json': { schema: { type: 'object', properties: { data: receiptSchema } } }, 'text/plain': { schema: { type: 'string' } } },
  },
  400: { description: 'Missing or invalid signature (BAD_REQUEST)', content: errorContent },
  404: { description: 'The provider is not enabled, or the order of the event is not known (yet); retried by the provider (NOT_FOUND)', content: errorContent },
};

defineRawRoute({
  method: 'POST',
  path: '/payments/webhook',
  access: 'public',
  openapi: {
    operationId: 'paymentWebhook',
    summary: 'Receives raw payloads from the default payment provider',
    description: `${DESCRIPTION} GraphQL twin: \`mutation { paymentWebhookReceive }\`.`,
    tags: ['payments'],
    parameters: [{ name: 'Stripe-Signature', in: 'header', required: false, schema: { type: 'string' }, description: 'Stripe and the offline provider' }],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { type: 'object', description: "The provider's notification (a Stripe Event for Stripe and offline)" } } },
    },
    responses: webhookResponses,
  },
  async handle(ctx) {
    return webhookAnswer(await receiveWebhook(ctx, null, await ctx.request.text(), headersOf(ctx.request)));
  },
});

defineRawRoute({
  method: 'POST',
  path: '/payments/webhook/:provider',
  access: 'public',
  openapi: {
    operationId: 'paymentWebhookOfProvider',
    summary: 'Receives raw payloads from one enabled payment provider',
    description: `${DESCRIPTION} The path names the provider (stripe, offline, or another enabled one).`,
    tags: ['payments'],
    parameters: [{ name: 'provider', in: 'path', required: true, schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: "The provider's notification" } } } },
    responses: webhookResponses,
  },
  async handle(ctx, params) {
    return webhookAnswer(await receiveWebhook(ctx, params.provider ?? null, await ctx.request.text(), headersOf(ctx.request)));
  },
});
