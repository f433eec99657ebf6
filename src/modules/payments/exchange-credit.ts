// The way back of an exchange credit (issue 27). An exchange moves the returned goods' value from
// the original order O to its replacement R without the provider (returns/exchange.ts): O gets a
// settled "transfer" refund recorded on the payments it was paid with (succeeded payment_refunds
// rows, no provider call: payments/refunds.ts recordRefundWithoutProvider; the refund names the
// return in exchange_return_id, never recognised by its free-text reason), R an `exchange_credit`
// payment of the same amount (providerReference `return:<returnId>`). The credit is money the
// customer paid on O, so when a refund of R reaches the credit (or R is cancelled) and the refund's
// destination is the original payment — always for a guest, who has no store credit — it goes back
// through those same payments of O:
//   - a provider payment: a provider refund against O's payment (our idempotency key
//     `<payment>:refund:<refund>:<attempt>`, as any refund), one payment_refunds row of R's refund
//     on O's payment (its refundId names R's refund: `refund.orderId ≠ payment.orderId` is what
//     marks such a "payback" row);
//   - a gift card or store credit of O: a ledger credit back to that card or account;
//   - an earlier exchange's credit (O was itself a replacement): followed to its own sources.
// O's payment does not count the payback as refunded (it counted the transfer already); R's
// exchange_credit payment does. So Σ (captured − refunded) over both orders = what the provider
// captured − what it paid back, whichever way the money goes. Each payment of O gives back at most
// what transfers put on it, less paybacks already made or pending; each replacement takes from a
// source at most what its own transfer put there.
import type { Tx } from '../../db/client.js';
import type { Payment } from '../../generated/prisma/client.js';
import { EXCHANGE_CREDIT_PROVIDER } from '../gift-cards/tenders.js';

export interface PaybackPart {
  /** A payment of the original order (or of an earlier one, along a chain of exchanges). */
  paymentId: string;
  amount: bigint;
}

const STANDING = ['pending', 'succeeded'] as const;

/** min of two bigints (Math.min takes numbers only). */
function smaller(a: bigint, b: bigint): bigint {
  return b < a ? b : a;
}

async function sum(tx: Tx, where: NonNullable<Parameters<Tx['paymentRefund']['aggregate']>[0]>['where']): Promise<bigint> {
  const got = await tx.paymentRefund.aggregate({ where, _sum: { amount: true } });
  return got._sum.amount ?? 0n;
}

/**
 * What one payment of an order can still give back to replacement orders: the transfers recorded
 * on it less the paybacks made or pending through it.
 */
async function sourceRoom(tx: Tx, source: Pick<Payment, 'id' | 'orderId'>): Promise<bigint> {
  const parked = await sum(tx, {
    paymentId: source.id,
    status: 'succeeded',
    refund: { orderId: source.orderId, exchangeReturnId: { not: null } },
  });
  const paidBack = await sum(tx, { paymentId: source.id, status: { in: [...STANDING] }, refund: { orderId: { not: source.orderId } } });
  return parked - paidBack;
}

/**
 * Plans `amount` of an exchange_credit payment back through the payments its credit came from
 * (see the header), in the order the transfer recorded them (newest payment first). Reads only;
 * answers the parts and what no source could take (`left` > 0: the caller refuses the refund).
 */
export async function planExchangePayback(
  tx: Tx,
  organizationId: string,
  credit: Pick<Payment, 'id' | 'orderId' | 'providerReference'>,
  amount: bigint,
  depth = 0,
): Promise<{ parts: PaybackPart[]; left: bigint }> {
  const parts: PaybackPart[] = [];
  let left = amount;
  const returnId = credit.providerReference?.startsWith('return:') ? credit.providerReference.slice('return:'.length) : null;
  // A chain of exchanges is followed a few steps at most (each step is one exchange of a replacement).
  if (!returnId || depth > 8 || left <= 0n) return { parts, left };
  const ret = await tx.orderReturn.findFirst({ where: { id: returnId, organizationId }, select: { orderId: true } });
  if (!ret) return { parts, left };
  const transfer = await tx.orderRefund.findFirst({
    where: { orderId: ret.orderId, organizationId, exchangeReturnId: returnId },
    select: { id: true },
  });
  if (!transfer) return { parts, left };
  const sources = await tx.paymentRefund.findMany({
    where: { refundId: transfer.id, status: 'succeeded' },
    include: { payment: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  for (const source of sources) {
    if (left <= 0n) break;
    // This replacement's own draws on the source (its refunds' paybacks through it, standing).
    const drawn = await sum(tx, { paymentId: source.paymentId, status: { in: [...STANDING] }, refund: { orderId: credit.orderId } });
    const take = smaller(smaller(source.amount - drawn, await sourceRoom(tx, source.payment)), left);
    if (take <= 0n) continue;
    if (source.payment.provider === EXCHANGE_CREDIT_PROVIDER) {
      // The original order was itself a replacement: its credit's own sources.
      const deeper = await planExchangePayback(tx, organizationId, source.payment, take, depth + 1);
      parts.push(...deeper.parts);
      left -= take - deeper.left;
      continue;
    }
    parts.push({ paymentId: source.paymentId, amount: take });
    left -= take;
  }
  return { parts, left };
}
