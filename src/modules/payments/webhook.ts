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

export async function receiveWebhook(ctx: Pick<RequestContext, 'db' | 'organization' | 'actor' | 'requestId' | 'services' | 'logger' | 'config'>, rawBody: string, signature: string | null): Promise<WebhookReceipt> {
  const event = verify(ctx, rawBody, signature);
  const provider = ctx.services.payments.adapter.name;
  const object = event.data?.object ?? {};
  const orderId = typeof object.metadata?.orderId === 'string' ? object.metadata.orderId : null;
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
      if (!orderId) outcome = 'ignored: no metadata.orderId';
      else {
        const order = await lockOrderForSystem(tx, ctx.organization.id, orderId);
        if (!order) throw new AppError('NOT_FOUND', `Order ${orderId} not found in this organization (yet): retry later`);
        const captured = typeof object.amount_received === 'number' ? object.amount_received : typeof object.amount === 'number' ? object.amount : Number(order.grandTotal);
        if (order.paymentIntentId && object.id && order.paymentIntentId !== object.id) outcome = 'ignored: payment intent does not match the order';
        else if (order.paymentStatus !== 'awaiting_payment') outcome = `ignored: order payment is ${order.paymentStatus}`;
        else if (order.status === 'pending') {
          ({ afterCommit } = await moveOrder(tx, systemCtx, order, { trigger: 'payment', to: 'confirmed', actor: SYSTEM_ACTOR, capturedAmount: captured, reason: `payment ${object.id ?? ''}`.trim() }));
          outcome = 'confirmed';
        } else if (order.status === 'cancelled') {
          ctx.logger.warn({ orderId, intent: object.id }, 'payment succeeded for a cancelled order: refund it');
          outcome = 'ignored: order is cancelled';
        } else {
          // Staff confirmed the order by hand before the money arrived: record the payment only.
          await tx.order.update({ where: { id: order.id }, data: { paymentStatus: 'paid', capturedAmount: BigInt(captured) } });
          outcome = 'paid';
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
