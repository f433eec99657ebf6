// Undoing a refund's effect on the order: line refunded quantities, shipping refunded amounts and
// the order's refunded total. Its own file because both the refund undo (orders/refunds.ts) and a
// provider-reported refund failure (payments/refunds.ts) run it, and payments must not import
// orders/refunds.ts, which calls into payments (that would close an import cycle).
import type { Tx } from '../../db/client.js';
import { toNumber } from './shared.js';

/** Gives a refund's quantities and amount back to its order (undo, or a refund the provider refused). */
export async function restoreRefunded(
  tx: Tx,
  refund: { orderId: string; amount: bigint; shippingAmount: bigint; lines: Array<{ lineId: string; quantity: number }> },
): Promise<void> {
  for (const line of refund.lines) await tx.orderLine.update({ where: { id: line.lineId }, data: { refundedQuantity: { decrement: line.quantity } } });
  // Shipping given back last-refunded first (the reverse of createRefund's order).
  let shipping = toNumber(refund.shippingAmount);
  if (shipping > 0) {
    const rows = await tx.orderShippingLine.findMany({ where: { orderId: refund.orderId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    for (const s of rows) {
      const back = Math.min(shipping, toNumber(s.refundedAmount));
      if (back > 0) await tx.orderShippingLine.update({ where: { id: s.id }, data: { refundedAmount: { decrement: BigInt(back) } } });
      shipping -= back;
    }
  }
  await tx.order.update({ where: { id: refund.orderId }, data: { refundedAmount: { decrement: refund.amount } } });
}
