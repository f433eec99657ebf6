// Payment-provider webhooks: POST /api/payments/webhook (the default provider) and
// POST /api/payments/webhook/:provider (any enabled provider). The provider verifies the raw body
// with its own scheme and maps it to our events (provider.ts handleEvent; missing or bad
// signature → 400, nothing changes). Each event is then processed in a transaction of its own:
//   - its id is claimed first in payment_events (provider, event id): a redelivery — concurrent
//     or later — is acknowledged as a duplicate and changes nothing;
//   - the event is processed in the organization of the payment it names: one provider account
//     (and one webhook secret) serves the whole deployment, so an endpoint receives every
//     organization's events whatever host it was addressed to (eventOrganization below);
//   - the payment is found by the provider's reference (scoped to that organization); an event
//     naming an order (metadata.orderId) no organization has (yet) is 404 and not recorded, so
//     the provider retries it (the checkout that created the payment may not have committed
//     yet); an order whose payment is another is ignored;
//   - apply.ts moves the payment and the order; events arriving out of order change nothing
//     backwards (an authorization after the capture, a failure after it).
// The answer is the provider's expected acknowledgement when it has one, else our receipt.
import type { RequestContext } from '../../context.js';
import { AppError } from '../../errors.js';
import type { Payment } from '../../generated/prisma/client.js';
import { lockOrderForSystem, runAfterCommit } from '../orders/service.js';
import type { OrdersCtx } from '../orders/shared.js';
import { inTransaction } from '../orders/tx.js';
import type { OrderRow } from '../orders/views.js';
import { applyOutcome, type Applied } from './apply.js';
import { WebhookSignatureError, type HandledEvents, type PaymentProvider, type PaymentProviderEvent } from './provider.js';
import { refundEvent } from './refunds.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface WebhookReceipt {
  received: boolean;
  duplicate: boolean;
  eventId: string;
  type: string;
  /** What the event did: confirmed, paid, partially_paid, authorized, failed, cancelled, voided, expired, refunded, recorded, duplicate or ignored: <why>. */
  outcome: string;
  orderId: string | null;
  paymentId: string | null;
}

export interface WebhookResult {
  receipts: WebhookReceipt[];
  acknowledgement?: HandledEvents['acknowledgement'];
}

type Ctx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'requestId' | 'services' | 'logger' | 'config'>;

export function webhookProvider(ctx: Ctx, name: string | null): PaymentProvider {
  const provider = name ? ctx.services.payments.providers.get(name) : ctx.services.payments.provider;
  if (!provider) throw new AppError('NOT_FOUND', `No enabled payment provider is named ${name}`);
  return provider;
}

async function verify(provider: PaymentProvider, rawBody: string, headers: Record<string, string>): Promise<HandledEvents> {
  try {
    return await provider.handleEvent(rawBody, headers);
  } catch (error) {
    if (error instanceof WebhookSignatureError)
      throw new AppError('BAD_REQUEST', error.message.startsWith('Missing') ? error.message : `Webhook signature verification failed: ${error.message}`);
    throw error;
  }
}

export async function receiveWebhook(ctx: Ctx, providerName: string | null, rawBody: string, headers: Record<string, string>): Promise<WebhookResult> {
  const provider = webhookProvider(ctx, providerName);
  const handled = await verify(provider, rawBody, headers);
  const receipts: WebhookReceipt[] = [];
  for (const event of handled.events) receipts.push(await receiveEvent(ctx, provider, event));
  return { receipts, ...(handled.acknowledgement ? { acknowledgement: handled.acknowledgement } : {}) };
}

async function receiveEvent(requestCtx: Ctx, provider: PaymentProvider, event: PaymentProviderEvent): Promise<WebhookReceipt> {
  const named = event.orderId ?? null;
  const orderId = named && UUID_RE.test(named) ? named.toLowerCase() : null;
  const eventPaymentId = event.paymentId && UUID_RE.test(event.paymentId) ? event.paymentId.toLowerCase() : null;
  const ctx = await inOrganizationOfEvent(requestCtx, provider.name, event, orderId, eventPaymentId);
  const systemCtx: OrdersCtx = { ...ctx, actor: null };

  const result = await inTransaction(ctx.db, async (tx) => {
    // Claim the event id first: a concurrent redelivery waits here, then sees it taken.
    const claimed = await tx.$executeRaw`
      insert into payment_events (provider, event_id, organization_id, type, order_id, outcome)
      values (${provider.name}, ${event.id}, ${ctx.organization.id}::uuid, ${event.providerType}, ${orderId}::uuid, 'processing')
      on conflict (provider, event_id) do nothing`;
    if (claimed === 0) return { outcome: 'duplicate', duplicate: true, paymentId: null as string | null, orderId, afterCommit: [] as Applied['afterCommit'] };

    let applied: Applied = { outcome: 'ignored: event type not handled', afterCommit: [] };
    let paymentId: string | null = null;
    let resolvedOrder = orderId;
    if (event.type !== 'ignored') {
      const found = await findTarget(tx, ctx.organization.id, provider.name, event, orderId, eventPaymentId);
      if (typeof found === 'string') applied = { outcome: `ignored: ${found}`, afterCommit: [] };
      else {
        paymentId = found.payment.id;
        resolvedOrder = found.order.id;
        applied = await applyEvent(tx, systemCtx, found.order, found.payment, event);
      }
    }
    await tx.paymentEvent.update({
      where: { provider_eventId: { provider: provider.name, eventId: event.id } },
      data: { outcome: applied.outcome, paymentId, orderId: resolvedOrder },
    });
    return { outcome: applied.outcome, duplicate: false, paymentId, orderId: resolvedOrder, afterCommit: applied.afterCommit };
  });
  await runAfterCommit(result.afterCommit);
  return {
    received: true,
    duplicate: result.duplicate,
    eventId: event.id,
    type: event.providerType,
    outcome: result.outcome,
    orderId: result.orderId,
    paymentId: result.paymentId,
  };
}

/**
 * The request's context moved to the organization that owns what the event names: the payment by
 * the provider's reference (unique per provider across organizations), else our payment id, else
 * the order id the provider echoes. The signature was verified with the deployment's secret, so
 * the event is authentic whichever host it was sent to. Nothing found: the addressed organization
 * (the event is recorded there as ignored, or 404 for an unknown order).
 */
async function inOrganizationOfEvent(ctx: Ctx, provider: string, event: PaymentProviderEvent, orderId: string | null, paymentId: string | null): Promise<Ctx> {
  const select = { organizationId: true } as const;
  const owner =
    (event.providerReference
      ? await ctx.db.payment.findUnique({ where: { provider_providerReference: { provider, providerReference: event.providerReference } }, select })
      : null) ??
    (paymentId ? await ctx.db.payment.findUnique({ where: { id: paymentId }, select }) : null) ??
    (orderId ? await ctx.db.order.findUnique({ where: { id: orderId }, select }) : null);
  if (!owner || owner.organizationId === ctx.organization.id) return ctx;
  const organization = await ctx.services.organizations.byId(owner.organizationId);
  return organization ? { ...ctx, organization } : ctx;
}

/** The payment and its locked order, or why the event is not ours to act on. 404 when the named order is unknown (the provider retries). */
async function findTarget(
  tx: import('../../db/client.js').Tx,
  organizationId: string,
  provider: string,
  event: PaymentProviderEvent,
  orderId: string | null,
  paymentId: string | null,
): Promise<{ payment: Payment; order: OrderRow } | string> {
  const reference = event.providerReference;
  let payment = reference ? await tx.payment.findFirst({ where: { organizationId, provider, providerReference: reference } }) : null;
  if (!payment && paymentId) payment = await tx.payment.findFirst({ where: { organizationId, id: paymentId, provider } });
  if (!payment) {
    if (!orderId) return event.orderId ? 'metadata.orderId is not an order UUID' : reference ? 'no payment with this reference' : 'event names no payment';
    const order = await lockOrderForSystem(tx, organizationId, orderId);
    if (!order) throw new AppError('NOT_FOUND', `Order ${orderId} not found in this organization (yet): retry later`);
    return reference ? 'payment intent does not match the order' : 'event has no payment intent id';
  }
  const order = await lockOrderForSystem(tx, organizationId, payment.orderId);
  if (!order) throw new AppError('NOT_FOUND', `Order ${payment.orderId} not found in this organization (yet): retry later`);
  // Read again under the order lock (captures and confirms lock the order first).
  return { payment: await tx.payment.findUniqueOrThrow({ where: { id: payment.id } }), order };
}

function applyEvent(tx: import('../../db/client.js').Tx, ctx: OrdersCtx, order: OrderRow, payment: Payment, event: PaymentProviderEvent): Promise<Applied> {
  const reason = `payment ${payment.providerReference ?? payment.id}`;
  if (event.currency && event.currency.toUpperCase() !== payment.currency.toUpperCase() && (event.type === 'payment.captured' || event.type === 'payment.authorized')) {
    return Promise.resolve({ outcome: `ignored: payment currency ${event.currency.toLowerCase()} is not the order's ${payment.currency}`, afterCommit: [] });
  }
  const amount = event.amount;
  const badAmount = amount !== undefined && (!Number.isSafeInteger(amount) || amount < 0);
  switch (event.type) {
    case 'payment.captured':
      if (amount === undefined || badAmount) return Promise.resolve({ outcome: 'ignored: event has no amount_received', afterCommit: [] });
      return applyOutcome(tx, ctx, order, payment, { kind: 'captured', amount }, reason);
    case 'payment.authorized':
      return applyOutcome(tx, ctx, order, payment, { kind: 'authorized', ...(amount !== undefined && !badAmount ? { amount } : {}) }, reason);
    case 'payment.failed':
      return applyOutcome(tx, ctx, order, payment, { kind: 'failed', ...(event.failure ? { failure: event.failure } : {}) }, reason);
    case 'payment.voided':
      return applyOutcome(tx, ctx, order, payment, { kind: 'voided' }, reason);
    case 'payment.expired':
      return applyOutcome(tx, ctx, order, payment, { kind: 'expired' }, reason);
    case 'payment.requires_action':
      return applyOutcome(tx, ctx, order, payment, { kind: 'requires_action' }, reason);
    case 'payment.refunded':
    case 'payment.refund_failed':
      return refundEvent(tx, ctx, order, payment, event);
    default:
      return Promise.resolve({ outcome: 'ignored: event type not handled', afterCommit: [] });
  }
}
