// Taking back the cards a gift-card line issued when the line is refunded or its order cancelled
// (and giving them back when that refund is undone or fails at the provider: restoreForUndoneRefund).
// Rule: a card whose balance is untouched (its initial balance, never redeemed, credited or
// expired; adjustments that net to nothing, like a revocation undone, do not count) is revoked — disabled, its balance zeroed by an `adjust` entry, `revokedAt` and the
// refund recorded —; when the cards to take back include one that was used, the refund or cancel
// is refused with 422 GIFT_CARD_ALREADY_USED and nothing changes (the caller's transaction rolls
// back). Runs inside the refund's or cancel's transaction, under the order lock they hold.
import type { Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { GiftCard } from '../../generated/prisma/client.js';
import { lockCardById, moveCard } from './ledger.js';
import { isGiftCardType } from './product.js';

interface RevokeLine {
  id: string;
  entityType: string;
  quantity: number;
  refundedQuantity: number;
}

/**
 * Never spent: its balance is its initial value and it was never redeemed, credited or expired.
 * `adjust` entries that net to nothing (the balance check) do not count: a revocation and the
 * restoration of an undone or failed refund are such a pair, and the card must stay revocable
 * after them (a retried refund takes it back again).
 */
async function untouched(tx: Tx, card: GiftCard): Promise<boolean> {
  if (card.balance !== card.initialBalance) return false;
  return (await tx.giftCardEntry.count({ where: { giftCardId: card.id, kind: { notIn: ['issue', 'adjust'] } } })) === 0;
}

/**
 * Revokes cards of `line` so that at most `owedAfter` stay live. Unused cards go first; newest
 * first among them. Refuses (422) when used cards would have to go.
 */
async function revokeDown(tx: Tx, organizationId: string, line: RevokeLine, owedAfter: number, refundId: string | null): Promise<number> {
  const live = await tx.giftCard.findMany({
    where: { organizationId, sourceOrderLineId: line.id, revokedAt: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
  });
  const excess = live.length - Math.max(0, owedAfter);
  if (excess <= 0) return 0;
  const locked: GiftCard[] = [];
  for (const { id } of [...live].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const card = await lockCardById(tx, organizationId, id);
    if (card) locked.push(card);
  }
  const fresh: GiftCard[] = [];
  const used: GiftCard[] = [];
  for (const card of locked) ((await untouched(tx, card)) ? fresh : used).push(card);
  if (fresh.length < excess) {
    throw new AppError('VALIDATION_FAILED', `The gift cards of this line have been used: ${excess} must be taken back, ${fresh.length} are unused`, [
      {
        field: 'lines',
        reason: 'GIFT_CARD_ALREADY_USED',
        message: `gift card(s) ${used.map((c) => `****${c.last4}`).join(', ')} of line ${line.id} were spent; adjust or disable them first, or refund fewer units`,
      },
    ]);
  }
  const now = new Date();
  for (const card of fresh.slice(0, excess)) {
    const zeroed =
      card.balance > 0n
        ? await moveCard(tx, card, { organizationId, kind: 'adjust', amount: -card.balance, note: refundId ? `order line refunded (${refundId})` : 'order cancelled' })
        : card;
    await tx.giftCard.update({ where: { id: zeroed.id }, data: { status: 'disabled', disabledAt: card.disabledAt ?? now, revokedAt: now, revokedByRefundId: refundId } });
  }
  return excess;
}

/** A refund of `quantity` units of each line: the gift-card lines give back their cards. */
export async function revokeForRefund(tx: Tx, organizationId: string, refundId: string, lines: Array<{ line: RevokeLine; quantity: number }>): Promise<number> {
  let revoked = 0;
  for (const { line, quantity } of lines) {
    if (!isGiftCardType(line.entityType)) continue;
    revoked += await revokeDown(tx, organizationId, line, line.quantity - line.refundedQuantity - quantity, refundId);
  }
  return revoked;
}

/** A cancelled order keeps none of its cards. */
export async function revokeForCancel(tx: Tx, organizationId: string, lines: RevokeLine[]): Promise<number> {
  let revoked = 0;
  for (const line of lines) if (isGiftCardType(line.entityType)) revoked += await revokeDown(tx, organizationId, line, 0, null);
  return revoked;
}

/**
 * An undone refund — or one the provider refused with nothing of it paid out (orders/refunds.ts
 * settleRefund, payments/refunds.ts refundEvent) — gives its line the cards it revoked back:
 * enabled again, the balance the revocation zeroed restored by an `adjust` entry (so no entry
 * leaves a negative balance). Revoking at refund time and restoring on failure, rather than
 * revoking only once the money has gone, keeps a card unspendable for the whole time its money
 * may be on its way back to the buyer. A retry of the refund revokes them again (refused, 422,
 * if one was spent meanwhile).
 */
export async function restoreForUndoneRefund(tx: Tx, organizationId: string, refundId: string, note = `refund ${refundId} undone`): Promise<number> {
  const cards = await tx.giftCard.findMany({ where: { organizationId, revokedByRefundId: refundId }, orderBy: { id: 'asc' }, select: { id: true } });
  for (const { id } of cards) {
    const card = await lockCardById(tx, organizationId, id);
    if (!card) continue;
    const back = await moveCard(tx, card, { organizationId, kind: 'adjust', amount: card.initialBalance - card.balance, note });
    await tx.giftCard.update({ where: { id: back.id }, data: { status: 'active', disabledAt: null, revokedAt: null, revokedByRefundId: null } });
  }
  return cards.length;
}
