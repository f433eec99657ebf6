// Gift card ledger: the one place a card's balance moves (issue, redeem, refund_credit, adjust,
// expire). Callers pass their transaction client, so the move commits with what caused it (the
// checkout's order, a refund, a staff adjustment).
//
// Concurrency: every move locks the card row (SELECT ... FOR UPDATE) and reads the balance under
// the lock; two checkouts racing for the last balance apply one after the other and the second
// sees what the first left (409 CONFLICT, reason GIFT_CARD_EMPTY). A CHECK (balance >= 0) backs it.
import { AppError } from '../../errors.js';
import type { Tx } from '../../db/client.js';
import type { GiftCard } from '../../generated/prisma/client.js';
import { hashCode, last4Of } from './code.js';

export const ENTRY_KINDS = ['issue', 'redeem', 'refund_credit', 'adjust', 'expire'] as const;
export type GiftCardEntryKind = (typeof ENTRY_KINDS)[number];

export interface CardMove {
  organizationId: string;
  kind: GiftCardEntryKind;
  /** Signed minor units: credits positive, debits negative. */
  amount: bigint;
  orderId?: string | null;
  paymentId?: string | null;
  note?: string | null;
  actor?: string | null;
}

/** Locks a card of the organization by id; null when there is none. */
export async function lockCardById(tx: Tx, organizationId: string, id: string): Promise<GiftCard | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    select id from gift_cards where id = ${id}::uuid and organization_id = ${organizationId}::uuid for update`;
  const cardId = rows[0]?.id;
  return cardId ? tx.giftCard.findUnique({ where: { id: cardId } }) : null;
}

/** Locks a card of the organization by its code; null when no card has that code. */
export async function lockCardByCode(tx: Tx, organizationId: string, code: string): Promise<GiftCard | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    select id from gift_cards where organization_id = ${organizationId}::uuid and code_hash = ${hashCode(code)} for update`;
  const cardId = rows[0]?.id;
  return cardId ? tx.giftCard.findUnique({ where: { id: cardId } }) : null;
}

/** Appends an entry and moves the (locked) card's balance; refuses a move below zero. */
export async function moveCard(tx: Tx, card: GiftCard, move: CardMove): Promise<GiftCard> {
  const balanceAfter = card.balance + move.amount;
  if (balanceAfter < 0n) {
    throw new AppError('CONFLICT', `Gift card ****${card.last4} has ${card.balance} ${card.currency}; ${-move.amount} requested`, {
      reason: 'GIFT_CARD_INSUFFICIENT_BALANCE',
      available: Number(card.balance),
      requested: Number(-move.amount),
    });
  }
  await tx.giftCardEntry.create({
    data: {
      organizationId: move.organizationId,
      giftCardId: card.id,
      kind: move.kind,
      amount: move.amount,
      balanceAfter,
      orderId: move.orderId ?? null,
      paymentId: move.paymentId ?? null,
      note: move.note ?? null,
      actorId: move.actor ?? null,
    },
  });
  return tx.giftCard.update({ where: { id: card.id }, data: { balance: balanceAfter } });
}

/** Why a card cannot pay now (null when it can): disabled, expired, other currency, empty. */
export function unusableReason(card: GiftCard, currency: string, now = new Date()): { reason: string; message: string } | null {
  if (card.status !== 'active') return { reason: 'GIFT_CARD_DISABLED', message: `gift card ****${card.last4} is disabled` };
  if (card.expiresAt && card.expiresAt <= now) return { reason: 'GIFT_CARD_EXPIRED', message: `gift card ****${card.last4} expired on ${card.expiresAt.toISOString()}` };
  if (card.currency !== currency.toUpperCase()) {
    return { reason: 'GIFT_CARD_CURRENCY_MISMATCH', message: `gift card ****${card.last4} is in ${card.currency}, the order in ${currency.toUpperCase()}` };
  }
  if (card.balance <= 0n) return { reason: 'GIFT_CARD_EMPTY', message: `gift card ****${card.last4} has no balance left` };
  return null;
}

export interface Redemption {
  giftCardId: string;
  last4: string;
  amount: bigint;
  balanceAfter: bigint;
}

/**
 * Redeems up to `maxAmount` from the card with `code`, inside the caller's transaction: locks the
 * card, checks it can pay (422 for a disabled, expired or other-currency card or an unknown code;
 * 409 when it is empty), takes min(balance, maxAmount) and records a `redeem` entry.
 */
export async function redeemGiftCard(
  tx: Tx,
  input: { organizationId: string; code: string; currency: string; maxAmount: bigint; orderId?: string | null; paymentId?: string | null; actor?: string | null; field?: string },
): Promise<Redemption> {
  const field = input.field ?? 'giftCardCodes';
  const card = await lockCardByCode(tx, input.organizationId, input.code);
  if (!card) {
    const message = `no gift card ends in ${last4Of(input.code) || '(empty)'}`;
    throw new AppError('VALIDATION_FAILED', message, [{ field, message, reason: 'GIFT_CARD_NOT_FOUND' }]);
  }
  const refusal = unusableReason(card, input.currency);
  if (refusal) {
    if (refusal.reason === 'GIFT_CARD_EMPTY') throw new AppError('CONFLICT', refusal.message, { reason: refusal.reason, fields: [field], available: 0 });
    throw new AppError('VALIDATION_FAILED', refusal.message, [{ field, message: refusal.message, reason: refusal.reason }]);
  }
  // biome-ignore lint/complexity/useMathMinMax: bigint operands; Math.min does not accept bigint
  const amount = card.balance < input.maxAmount ? card.balance : input.maxAmount;
  if (amount <= 0n) return { giftCardId: card.id, last4: card.last4, amount: 0n, balanceAfter: card.balance };
  const after = await moveCard(tx, card, {
    organizationId: input.organizationId,
    kind: 'redeem',
    amount: -amount,
    orderId: input.orderId,
    paymentId: input.paymentId,
    actor: input.actor,
  });
  return { giftCardId: card.id, last4: card.last4, amount, balanceAfter: after.balance };
}

/** Puts `amount` back on a card (a refund of a gift-card-paid order): a `refund_credit` entry. */
export async function creditGiftCard(
  tx: Tx,
  input: { organizationId: string; giftCardId: string; amount: bigint; orderId?: string | null; paymentId?: string | null; note?: string | null; actor?: string | null },
): Promise<GiftCard> {
  const card = await lockCardById(tx, input.organizationId, input.giftCardId);
  if (!card) throw new AppError('NOT_FOUND', 'Gift card not found');
  return moveCard(tx, card, {
    organizationId: input.organizationId,
    kind: 'refund_credit',
    amount: input.amount,
    orderId: input.orderId,
    paymentId: input.paymentId,
    note: input.note,
    actor: input.actor,
  });
}
