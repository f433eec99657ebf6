// Gift cards and store credit as tenders of an order (issue 27 items 5 and 6): checkout redeems
// them in its own transaction before the payment provider is called, so the provider charges only
// what they leave; each tender becomes a `payments` row (provider `gift_card` or `store_credit`,
// captured at once) beside the provider's. Refunds give money back to these tenders first (see
// planTenderRefund), then to the provider. The exchange credit of a replacement order (returns/
// exchange.ts) is planned here too, last, but it is not paid back here: it goes back through the
// original order's payments it came from (payments/exchange-credit.ts, run by payments/refunds.ts
// refundOrder), or as store credit when the refund's destination is store credit.
//
// Order of tenders: gift cards, then store credit, then the provider for the rest. Several gift
// cards are redeemed in the order of their code hashes (not the order given): every checkout locks
// cards in the same order, so two checkouts sharing two cards cannot deadlock.
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client.js';
import type { Payment } from '../../generated/prisma/client.js';
import { AppError } from '../../errors.js';
import { debitStoreCredit, creditStoreCredit } from '../store-credit/ledger.js';
import { hashCode, normalizeCode } from './code.js';
import { creditGiftCard, redeemGiftCard } from './ledger.js';

export const GIFT_CARD_PROVIDER = 'gift_card';
export const STORE_CREDIT_PROVIDER = 'store_credit';

export interface TenderRequest {
  giftCardCodes?: string[] | null;
  /** Use as much of the customer's store credit as the order needs. */
  useStoreCredit?: boolean | null;
  /** Use exactly this much store credit (minor units); short balance: 409. */
  storeCreditAmount?: number | null;
}

export interface AppliedTender {
  paymentId: string;
  provider: typeof GIFT_CARD_PROVIDER | typeof STORE_CREDIT_PROVIDER;
  /** The card's last 4 characters; null for store credit. */
  method: string | null;
  giftCardId: string | null;
  amount: bigint;
}

export interface TenderContext {
  organizationId: string;
  orderId: string;
  currency: string;
  customerId: string | null;
  actor: string | null;
}

/** The distinct codes of a request, normalised (a code named twice is redeemed once). */
export function distinctCodes(codes: readonly string[] | null | undefined): string[] {
  const seen = new Map<string, string>();
  for (const code of codes ?? []) {
    const normal = normalizeCode(code);
    if (normal && !seen.has(hashCode(normal))) seen.set(hashCode(normal), normal);
  }
  return [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, code]) => code);
}

export function wantsTenders(request: TenderRequest): boolean {
  return Boolean(request.giftCardCodes?.length || request.useStoreCredit || request.storeCreditAmount);
}

/**
 * Redeems the request's tenders against `total` inside the checkout's transaction and returns
 * what each covered. Throws the ledger's AppError (the checkout wraps it as CHECKOUT_FAILED).
 */
export async function applyTenders(tx: Tx, ctx: TenderContext, total: bigint, request: TenderRequest): Promise<AppliedTender[]> {
  const applied: AppliedTender[] = [];
  let remaining = total;
  for (const code of distinctCodes(request.giftCardCodes)) {
    // A card the order no longer needs is still checked (a bad code is refused whatever its
    // place), but not charged.
    const paymentId = randomUUID();
    const redemption = await redeemGiftCard(tx, {
      organizationId: ctx.organizationId,
      code,
      currency: ctx.currency,
      maxAmount: remaining,
      orderId: ctx.orderId,
      paymentId,
      actor: ctx.actor,
    });
    if (redemption.amount === 0n) continue;
    applied.push({ paymentId, provider: GIFT_CARD_PROVIDER, method: redemption.last4, giftCardId: redemption.giftCardId, amount: redemption.amount });
    remaining -= redemption.amount;
  }
  const wantsCredit = request.storeCreditAmount ? BigInt(request.storeCreditAmount) : request.useStoreCredit ? remaining : 0n;
  if (request.useStoreCredit || request.storeCreditAmount) {
    if (!ctx.customerId) {
      const message = 'store credit belongs to a customer: sign in, or name the customer';
      throw new AppError('VALIDATION_FAILED', message, [{ field: request.storeCreditAmount ? 'storeCreditAmount' : 'useStoreCredit', message }]);
    }
    if (wantsCredit > remaining) {
      const message = `the order leaves ${remaining} to pay; ${wantsCredit} of store credit is more than that`;
      throw new AppError('VALIDATION_FAILED', message, [{ field: 'storeCreditAmount', message }]);
    }
  }
  if (wantsCredit > 0n && ctx.customerId) {
    const amount = request.useStoreCredit && !request.storeCreditAmount ? await availableCredit(tx, ctx, wantsCredit) : wantsCredit;
    if (amount > 0n) {
      const paymentId = randomUUID();
      await debitStoreCredit(tx, {
        organizationId: ctx.organizationId,
        customerId: ctx.customerId,
        amount,
        currency: ctx.currency,
        reason: 'Paid an order',
        sourceType: 'checkout',
        sourceId: ctx.orderId,
        actor: ctx.actor,
      });
      applied.push({ paymentId, provider: STORE_CREDIT_PROVIDER, method: null, giftCardId: null, amount });
    }
  }
  return applied;
}

/** useStoreCredit: min(balance, wanted), read under the account's row lock (the debit relocks it: same transaction). */
async function availableCredit(tx: Tx, ctx: TenderContext, wanted: bigint): Promise<bigint> {
  const rows = await tx.$queryRaw<Array<{ balance: bigint }>>`
    select balance from store_credit_accounts
    where organization_id = ${ctx.organizationId}::uuid and customer_id = ${ctx.customerId} and currency = ${ctx.currency}
    for update`;
  const balance = rows[0]?.balance ?? 0n;
  return balance < wanted ? balance : wanted;
}

/** The payment rows of the tenders, written after the order row (their foreign key). */
export async function recordTenderPayments(tx: Tx, ctx: TenderContext, applied: readonly AppliedTender[], at: Date): Promise<void> {
  if (!applied.length) return;
  await tx.payment.createMany({
    data: applied.map((t) => ({
      id: t.paymentId,
      organizationId: ctx.organizationId,
      orderId: ctx.orderId,
      provider: t.provider,
      method: t.method,
      currency: ctx.currency,
      amount: t.amount,
      authorizedAmount: t.amount,
      capturedAmount: t.amount,
      status: 'captured' as const,
      // Unique per provider: a card pays an order once (codes are deduplicated), credit likewise.
      providerReference: `${t.giftCardId ?? ctx.customerId}:${ctx.orderId}`,
      createdAt: at,
      updatedAt: at,
    })),
  });
}

export interface TenderRefundPart {
  paymentId: string;
  provider: string;
  amount: bigint;
}

/** The payment that carries an exchange's credit onto its replacement order (returns/exchange.ts). */
export const EXCHANGE_CREDIT_PROVIDER = 'exchange_credit';

const LEDGER = [GIFT_CARD_PROVIDER, STORE_CREDIT_PROVIDER, EXCHANGE_CREDIT_PROVIDER];

/**
 * How much of a refund goes back to the order's ledger payments. Gift cards first, then store
 * credit, each oldest first, up to what each has not given back yet; then the provider's
 * captures; last the exchange credit of a replacement order (returns/exchange.ts), which goes
 * back through the original order's payments (payments/exchange-credit.ts) — so a partial refund
 * of an exchange that cost the customer extra returns the money they paid by card for the
 * difference before the credit. A refund pinned to one payment (`pinnedPaymentId`: a cancelled
 * replacement order's exchange credit) takes only that payment. Reads only; applyTenderRefund
 * moves the gift-card and store-credit parts, refundOrder the exchange-credit parts.
 */
export async function planTenderRefund(tx: Tx, orderId: string, amount: bigint, pinnedPaymentId: string | null = null): Promise<TenderRefundPart[]> {
  if (pinnedPaymentId) {
    const pinned = await tx.payment.findFirst({ where: { id: pinnedPaymentId, orderId, status: { notIn: ['failed', 'voided'] } } });
    if (!pinned || LEDGER.indexOf(pinned.provider) < 0) return [];
    const open = pinned.capturedAmount - pinned.refundedAmount;
    return open > 0n ? [{ paymentId: pinned.id, provider: pinned.provider, amount: smaller(open, amount) }] : [];
  }
  const payments = await tx.payment.findMany({ where: { orderId, status: { notIn: ['failed', 'voided'] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const rank = (p: Payment) => LEDGER.indexOf(p.provider);
  const tenders = payments.filter((p) => rank(p) >= 0 && rank(p) < 2).sort((a, b) => rank(a) - rank(b));
  const parts: TenderRefundPart[] = [];
  let left = amount;
  const take = (p: Payment) => {
    const open = p.capturedAmount - p.refundedAmount;
    if (left <= 0n || open <= 0n) return;
    const part = smaller(open, left);
    parts.push({ paymentId: p.id, provider: p.provider, amount: part });
    left -= part;
  };
  for (const p of tenders) take(p);
  const providerRoom = payments.filter((p) => rank(p) < 0).reduce((sum, p) => sum + p.capturedAmount - p.refundedAmount, 0n);
  left -= smaller(providerRoom, left);
  for (const p of payments.filter((x) => x.provider === EXCHANGE_CREDIT_PROVIDER)) take(p);
  return parts;
}

/**
 * Gives `amount` of one tender payment back to where it came from: the gift card it redeemed (a
 * `refund_credit` entry) or the customer's store credit. Refunds, cancellation and the way back
 * of an exchange credit (payments/exchange-credit.ts, when the original order was paid by a card
 * or store credit) share it.
 */
export async function creditTenderBack(
  tx: Tx,
  order: { organizationId: string; orderId: string; currency: string; customerId: string | null },
  payment: Pick<Payment, 'id' | 'provider'>,
  amount: bigint,
  why: { note: string; reason: string; sourceType: string; sourceId: string },
): Promise<void> {
  if (payment.provider === GIFT_CARD_PROVIDER) {
    const entry = await tx.giftCardEntry.findFirst({ where: { paymentId: payment.id, kind: 'redeem' }, select: { giftCardId: true } });
    if (!entry) throw new Error(`gift card payment ${payment.id} has no redeem entry`);
    await creditGiftCard(tx, { organizationId: order.organizationId, giftCardId: entry.giftCardId, amount, orderId: order.orderId, paymentId: payment.id, note: why.note });
    return;
  }
  // An exchange credit is never given back here: it goes back through the original order's payments.
  if (payment.provider !== STORE_CREDIT_PROVIDER) throw new Error(`${payment.provider} payment ${payment.id} is not a gift card or store credit`);
  if (!order.customerId) throw new Error(`${payment.provider} payment ${payment.id} of an order without a customer`);
  await creditStoreCredit(tx, {
    organizationId: order.organizationId,
    customerId: order.customerId,
    amount,
    currency: order.currency,
    reason: why.reason,
    sourceType: why.sourceType,
    sourceId: why.sourceId,
  });
}

/** Puts the planned gift-card and store-credit parts back (ledger credits) and records them on the payments and the refund. */
export async function applyTenderRefund(
  tx: Tx,
  input: { organizationId: string; orderId: string; refundId: string; currency: string; customerId: string | null; parts: readonly TenderRefundPart[] },
): Promise<void> {
  for (const part of input.parts) {
    const payment = await tx.payment.findUniqueOrThrow({ where: { id: part.paymentId } });
    await creditTenderBack(tx, input, payment, part.amount, {
      note: `refund ${input.refundId}`,
      reason: 'Refund of an order',
      sourceType: 'refund',
      sourceId: input.refundId,
    });
    const refunded = payment.refundedAmount + part.amount;
    await tx.payment.update({ where: { id: payment.id }, data: { refundedAmount: refunded, status: refunded >= payment.capturedAmount ? 'refunded' : 'partially_refunded' } });
    await tx.paymentRefund.create({
      data: { organizationId: input.organizationId, refundId: input.refundId, paymentId: payment.id, amount: part.amount, status: 'succeeded', settledAt: new Date() },
    });
  }
}

/**
 * A cancelled order gives its gift-card and store-credit payments back in the cancel's own
 * transaction (the caller holds the payments' locks): each card gets a `refund_credit` entry, the
 * customer's store credit a credit (sourceType order_cancel). Answers what went back per payment;
 * the caller marks those payments refunded and adds the total to the order's refundedAmount. A
 * payment that has already given everything back (a refund before the cancel) is skipped.
 */
export async function returnTendersOnCancel(
  tx: Tx,
  input: { organizationId: string; orderId: string; currency: string; customerId: string | null; payments: readonly Payment[] },
): Promise<Array<{ payment: Payment; amount: bigint }>> {
  const returned: Array<{ payment: Payment; amount: bigint }> = [];
  for (const payment of input.payments) {
    if (payment.provider !== GIFT_CARD_PROVIDER && payment.provider !== STORE_CREDIT_PROVIDER) continue;
    const open = payment.capturedAmount - payment.refundedAmount;
    if (open <= 0n) continue;
    await creditTenderBack(tx, input, payment, open, { note: 'order cancelled', reason: 'Order cancelled', sourceType: 'order_cancel', sourceId: input.orderId });
    returned.push({ payment, amount: open });
  }
  return returned;
}

/** min of two bigints (Math.min takes numbers only). */
function smaller(a: bigint, b: bigint): bigint {
  return b < a ? b : a;
}
