// Gift-card products bought (product.ts): once an order is paid, each unit of each gift-card line
// becomes a card with the line's unit price as balance, in the order's currency, emailed to the
// line's recipient (or the order email) with its code.
//
// When: an outbox subscriber looks at the events that can leave an order paid (orders.create — a
// checkout the tenders paid in full, or a draft completed —, orders.statusChange, payments.update,
// orders.edit confirmed) and, when the order
// is paid and has gift-card lines, enqueues `gift-cards/issue-purchased` in the dispatch
// transaction. The same order may be enqueued several times (a paid event dispatched twice, a
// capture after the confirmation): the job is idempotent.
//
// Exactly once: each card is issued in its own transaction that locks its order line and counts
// the cards the line already has (one per unit still owed: quantity − refunded), and the email is
// sent inside that transaction. A mail failure rolls the card back and the job retries (the code
// is stored hashed only, so a card can be emailed only in the transaction that made its code); a
// re-run finds the cards already issued and issues none. Jobs of one order run one at a time
// (concurrency key), and the line lock covers any other runner.
import type { Tx } from '../../db/client.js';
import { withTransaction } from '../../db/transaction.js';
import { onEvent, type SubscriberContext } from '../../events/subscribers.js';
import { defineTask } from '../../jobs/tasks.js';
import type { OrganizationRef } from '../../context.js';
import type { Mailer } from '../orders/documents/mailer.js';
import { GIFT_CARD_ENTITY_TYPE, isGiftCardType, recipientOf } from './product.js';
import { issueGiftCardIn, type GiftCardIssuedView } from './service.js';
import type { JobsCtx } from './expiry-schedule.js';

export const ISSUE_PURCHASED_TASK = 'gift-cards/issue-purchased';

declare module '../../jobs/tasks.js' {
  interface TaskTypes {
    'gift-cards/issue-purchased': { input: { orderId: string }; output: { issued: number } };
  }
}

/** Payment states in which what was bought is owed (a partial refund of other lines included). */
const PAID_STATES = ['paid', 'partially_refunded'];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function enqueueIfPaid(ctx: SubscriberContext, organizationId: string, orderId: unknown): Promise<void> {
  // A payload naming no order, or something that is not an order id, names nothing to issue (and must not fail the cast below).
  if (typeof orderId !== 'string' || !UUID_RE.test(orderId)) return;
  const rows = await ctx.db.$queryRaw<Array<{ id: string }>>`
    select o.id from orders o
    where o.id = ${orderId}::uuid and o.organization_id = ${organizationId}::uuid
      and o.payment_status::text = any(${PAID_STATES}::text[]) and o.status <> 'cancelled'
      and exists (select 1 from order_lines l where l.order_id = o.id and l.entity_type = ${GIFT_CARD_ENTITY_TYPE})`;
  if (rows.length) await ctx.services.jobs.enqueue({ task: ISSUE_PURCHASED_TASK, organizationId, input: { orderId } }, ctx.db);
}

// Required: a failure leaves the event undispatched and it is offered again, so no paid order is missed.
const options = { name: 'gift-cards: issue purchased cards', required: true };
/**
 * An order payload whose lines show no gift-card product needs no look (no statement per ordinary
 * order). A payload without an order (an event recorded by hand or by an older version) names
 * nothing to issue: it must not throw, or this required subscriber would hold the event back from
 * every webhook forever.
 */
function mayHaveGiftCards(order: { id: string; lineItems?: Array<{ entityType: string }> } | null | undefined): order is { id: string } {
  if (!order?.id) return false;
  return !Array.isArray(order.lineItems) || order.lineItems.some((l) => isGiftCardType(l.entityType));
}
onEvent('orders.create', (event, ctx) => (mayHaveGiftCards(event.payload.order) ? enqueueIfPaid(ctx, event.organizationId, event.payload.order.id) : undefined), options);
onEvent('orders.statusChange', (event, ctx) => (mayHaveGiftCards(event.payload.order) ? enqueueIfPaid(ctx, event.organizationId, event.payload.order.id) : undefined), options);
onEvent('payments.update', (event, ctx) => enqueueIfPaid(ctx, event.organizationId, event.payload.payment?.orderId), options);
// An edit can add a gift-card line to an order that stays paid (its total unchanged, or lowered and
// refunded): no payment or status event follows, so the confirmed edit itself is the cue. An edit
// whose difference is still owed leaves the order partially_paid, and the payment that settles it
// (payments.update) enqueues then.
onEvent('orders.edit', (event, ctx) => (event.payload?.action === 'confirmed' ? enqueueIfPaid(ctx, event.organizationId, event.payload.edit?.orderId) : undefined), options);

interface IssueDeps {
  organization: OrganizationRef;
  services: JobsCtx['services'];
  mailer: Mailer;
  requestId: string;
}

type PaidLine = { id: string; unitPrice: bigint; giftCardRecipient: unknown };
type PaidOrder = { id: string; number: string; currency: string; customerEmail: string | null };

/** Issues the line's next owed card and emails it, in one transaction; null when none is owed. */
async function issueNextUnit(tx: Tx, deps: IssueDeps, order: PaidOrder, line: PaidLine): Promise<GiftCardIssuedView | null> {
  const [locked] = await tx.$queryRaw<Array<{ quantity: number; refunded_quantity: number }>>`
    select quantity, refunded_quantity from order_lines where id = ${line.id}::uuid for update`;
  if (!locked) return null;
  const live = await tx.giftCard.count({ where: { sourceOrderLineId: line.id, revokedAt: null } });
  const revoked = await tx.giftCard.count({ where: { sourceOrderLineId: line.id, revokedAt: { not: null } } });
  // Units a refund took back before their card existed are owed no card either.
  if (live + revoked >= locked.quantity || live >= locked.quantity - locked.refunded_quantity) return null;
  const recipient = recipientOf(line.giftCardRecipient);
  const to = recipient?.email ?? order.customerEmail;
  const card = await issueGiftCardIn(
    tx,
    { organization: deps.organization, actor: null, requestId: deps.requestId, services: deps.services },
    {
      initialBalance: line.unitPrice,
      currency: order.currency,
      recipientEmail: to,
      recipientName: recipient?.name ?? null,
      note: `Bought with order ${order.number}`,
      sourceOrderId: order.id,
      sourceOrderLineId: line.id,
    },
  );
  if (to) await deps.mailer.send(giftCardMail(deps.organization.name, card, to, recipient?.name ?? null, recipient?.message ?? null));
  return card;
}

function amountText(minor: bigint, currency: string): string {
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(Number(minor) / 10 ** digits);
  } catch {
    return `${minor} ${currency} (minor units)`;
  }
}

export function giftCardMail(storeName: string, card: GiftCardIssuedView, to: string, name: string | null, message: string | null) {
  return {
    to,
    subject: `${storeName}: your gift card`,
    text: [
      `Hello${name ? ` ${name}` : ''},`,
      '',
      `You have received a ${storeName} gift card worth ${amountText(card.initialBalance, card.currency)}.`,
      ...(message ? ['', message] : []),
      '',
      `Gift card code: ${card.code}`,
      ...(card.expiresAt ? [`Valid until: ${card.expiresAt.toISOString().slice(0, 10)}`] : []),
      '',
      'Enter the code at checkout. Keep it safe: anyone with the code can spend the balance.',
    ].join('\n'),
  };
}

defineTask({
  slug: ISSUE_PURCHASED_TASK,
  retries: { attempts: 8, backoff: { type: 'exponential', delay: 30_000 } },
  concurrency: { key: (input) => `order:${input.orderId}` },
  async handler(input, ctx) {
    const order = await ctx.db.order.findFirst({
      where: { id: input.orderId, organizationId: ctx.organizationId },
      select: {
        id: true,
        number: true,
        currency: true,
        customerEmail: true,
        status: true,
        paymentStatus: true,
        lines: { where: { entityType: GIFT_CARD_ENTITY_TYPE }, orderBy: { position: 'asc' }, select: { id: true, unitPrice: true, giftCardRecipient: true } },
      },
    });
    // A cancelled or no longer paid order issues nothing (a later paid event enqueues again).
    if (!order || order.status === 'cancelled' || !PAID_STATES.includes(order.paymentStatus)) return { issued: 0 };
    const organization = await ctx.db.organization.findUniqueOrThrow({ where: { id: ctx.organizationId }, select: { id: true, slug: true, name: true } });
    const deps: IssueDeps = { organization, services: ctx.services, mailer: ctx.services.mailer, requestId: `job:${ctx.job.id}` };
    let issued = 0;
    for (const line of order.lines) {
      // A free line (100% discount on a price of 0) has no balance to put on a card.
      if (line.unitPrice <= 0n) continue;
      while (await withTransaction({ db: ctx.db }, (tx) => issueNextUnit(tx, deps, order, line))) issued += 1;
    }
    return { issued };
  },
});
