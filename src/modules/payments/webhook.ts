// POST /api/payments/webhook: payment-provider events, Stripe's format and signature for both
// adapters. The raw body is verified against the Stripe-Signature header with the webhook
// secret (missing or bad → 400, nothing changes). Each event id is processed once: a redelivery
// is acknowledged as a duplicate. `payment_intent.succeeded` with metadata.orderId moves an order
// awaiting payment to confirmed (state table row `payment`), recording what was captured.
// An event for an order this organization does not have (yet) is answered 404 without being
// recorded, so the provider retries it: the checkout that created the intent may not have
// committed when the event arrives.
import type { RequestContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { moveOrder, lockOrderForSystem, runAfterCommit } from '../orders/service.js';
import { SYSTEM_ACTOR, type OrdersCtx } from '../orders/shared.js';
import { inTransaction } from '../orders/tx.js';
import { WebhookSignatureError, type ProviderEvent } from './adapter.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface WebhookReceipt {
  received: boolean;
  duplicate: boolean;
  eventId: string;
  type: string;
  /** What the event did: confirmed, paid, ignored: <why>, recorded. */
  outcome: string;
  orderId: string | null;
}

function verify(ctx: OrdersCtx, rawBody: string, signature: string | null): ProviderEvent {
  if (!signature) throw new AppError('BAD_REQUEST', 'Missing Stripe-Signature header');
  try {
    const event = ctx.services.payments.adapter.verifyWebhook(rawBody, signature);
    if (typeof event?.id !== 'string' || typeof event.type !== 'string') throw new WebhookSignatureError('not an event');
    return event;
  } catch (error) {
    if (error instanceof WebhookSignatureError) throw new AppError('BAD_REQUEST', `Webhook signature verification failed: ${error.message}`);
    throw error;
  }
}

/**
 * What a succeeded intent paid towards this order, or why it cannot count: the intent must be the
 * one checkout created for the order (an event without an intent id, or with another, proves
 * nothing about this order), the order must still expect money, and the amount must be a
 * non-negative whole number of minor units in the order's currency.
 */
function paymentOf(
  object: NonNullable<ProviderEvent['data']>['object'],
  order: { paymentIntentId: string | null; paymentStatus: string; currency: string },
): { intentId: string; amount: number } | string {
  const intentId = typeof object.id === 'string' && object.id ? object.id : null;
  if (!intentId) return 'event has no payment intent id';
  if (!order.paymentIntentId || order.paymentIntentId !== intentId) return 'payment intent does not match the order';
  if (order.paymentStatus !== 'awaiting_payment' && order.paymentStatus !== 'partially_paid') return `order payment is ${order.paymentStatus}`;
  const amount = typeof object.amount_received === 'number' ? object.amount_received : object.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) return 'event has no amount_received';
  if (typeof object.currency === 'string' && object.currency.toUpperCase() !== order.currency.toUpperCase()) return `payment currency ${object.currency} is not the order's ${order.currency}`;
  return { intentId, amount };
}

export async function receiveWebhook(ctx: Pick<RequestContext, 'db' | 'organization' | 'actor' | 'requestId' | 'services' | 'logger' | 'config'>, rawBody: string, signature: string | null): Promise<WebhookReceipt> {
  const event = verify(ctx, rawBody, signature);
  const provider = ctx.services.payments.adapter.name;
  const object = event.data?.object ?? {};
  // Our intents carry our order's UUID. Another system sharing the provider account may put its
  // own ids there: such an event is not ours to act on (recorded and ignored, not a 500 from the
  // uuid column, which the provider would retry forever).
  const namedOrder = typeof object.metadata?.orderId === 'string' ? object.metadata.orderId : null;
  const orderId = namedOrder && UUID_RE.test(namedOrder) ? namedOrder.toLowerCase() : null;
  const systemCtx: OrdersCtx = { ...ctx, actor: null };

  const result = await inTransaction(ctx.db, async (tx) => {
    // Claim the event id first: a concurrent redelivery waits here, then sees it taken.
    const claimed = await tx.$executeRaw`
      insert into payment_events (provider, event_id, organization_id, type, order_id, outcome)
      values (${provider}, ${event.id}, ${ctx.organization.id}::uuid, ${event.type}, ${orderId}::uuid, 'processing')
      on conflict (provider, event_id) do nothing`;
    if (claimed === 0) return { outcome: 'duplicate', duplicate: true, afterCommit: [] as Array<() => Promise<void>> };

    let outcome = 'ignored: event type not handled';
    let afterCommit: Array<() => Promise<void>> = [];
    if (event.type === 'payment_intent.succeeded') {
      if (!orderId) outcome = namedOrder ? 'ignored: metadata.orderId is not an order UUID' : 'ignored: no metadata.orderId';
      else {
        const order = await lockOrderForSystem(tx, ctx.organization.id, orderId);
        if (!order) throw new AppError('NOT_FOUND', `Order ${orderId} not found in this organization (yet): retry later`);
        const paid = paymentOf(object, order);
        if (typeof paid === 'string') outcome = `ignored: ${paid}`;
        else if (order.status === 'cancelled') {
          ctx.logger.warn({ orderId, intent: object.id, amount: paid.amount }, 'payment succeeded for a cancelled order: refund it');
          outcome = 'ignored: order is cancelled';
        } else {
          const grandTotal = Number(order.grandTotal);
          const captured = Number(order.capturedAmount ?? 0) + paid.amount;
          if (captured < grandTotal) {
            // A short payment: record it, and keep the order waiting for the rest.
            await tx.order.update({ where: { id: order.id }, data: { paymentStatus: 'partially_paid', capturedAmount: BigInt(captured) } });
            outcome = 'partially_paid';
          } else {
            if (captured > grandTotal) ctx.logger.warn({ orderId, captured, grandTotal }, 'payment exceeds the order total: refund the difference');
            if (order.status === 'pending') {
              ({ afterCommit } = await moveOrder(tx, systemCtx, order, { trigger: 'payment', to: 'confirmed', actor: SYSTEM_ACTOR, capturedAmount: captured, reason: `payment ${paid.intentId}` }));
              outcome = 'confirmed';
            } else {
              // Staff confirmed the order by hand before the money arrived: record the payment only.
              await tx.order.update({ where: { id: order.id }, data: { paymentStatus: 'paid', capturedAmount: BigInt(captured) } });
              outcome = 'paid';
            }
          }
        }
      }
    } else if (event.type === 'payment_intent.payment_failed' || event.type === 'payment_intent.canceled') {
      outcome = 'recorded';
    }
    await tx.paymentEvent.update({ where: { provider_eventId: { provider, eventId: event.id } }, data: { outcome } });
    return { outcome, duplicate: false, afterCommit };
  });
  await runAfterCommit(result.afterCommit);
  return { received: true, duplicate: result.duplicate, eventId: event.id, type: event.type, outcome: result.outcome, orderId };
}
