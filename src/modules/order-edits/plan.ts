// An edit's new lines from the order's lines and the requested operations (pure, no I/O), and
// the order's fingerprint: what a preview was made against.
import { createHash } from 'node:crypto';
import { validationFailed, type FieldIssue } from '../../errors.js';
import type { OrderRow } from '../orders/views.js';
import type { ShippingAddress } from '../checkout/service.js';
import type { GiftCardRecipient } from '../gift-cards/product.js';

/** The same address checkout takes. */
export type EditAddress = ShippingAddress;

export interface EditOperations {
  addLines: Array<{ entityId: string; variantId: string | null; quantity: number; giftCardRecipient?: GiftCardRecipient | null }>;
  removeLineIds: string[];
  quantities: Array<{ lineItemId: string; quantity: number }>;
  shippingAddress: EditAddress | null;
}

/** A line of the edited order: an existing line (lineItemId) at its sold price, or a new one priced today. */
export interface PlannedLine {
  lineItemId: string | null;
  entityId: string;
  variantId: string | null;
  quantity: number;
  /** The quantity the order holds now (0 for a new line). */
  previousQuantity: number;
  /** A new gift-card line's recipient (null: the order email; kept lines keep theirs). */
  giftCardRecipient: GiftCardRecipient | null;
}

export function normalizeOperations(input: {
  addLines?: Array<{ entityId: string; variantId?: string | null; quantity: number; giftCardRecipient?: GiftCardRecipient | null }> | null;
  removeLineIds?: string[] | null;
  quantities?: Array<{ lineItemId: string; quantity: number }> | null;
  shippingAddress?: EditAddress | null;
}): EditOperations {
  return {
    addLines: (input.addLines ?? []).map((l) => ({
      entityId: l.entityId,
      variantId: l.variantId ?? null,
      quantity: l.quantity,
      ...(l.giftCardRecipient ? { giftCardRecipient: l.giftCardRecipient } : {}),
    })),
    removeLineIds: input.removeLineIds ?? [],
    quantities: input.quantities ?? [],
    shippingAddress: input.shippingAddress ?? null,
  };
}

/** The order's lines after the operations; 422 naming the operation that does not fit the order. */
export function planLines(order: OrderRow, ops: EditOperations): PlannedLine[] {
  const issues: FieldIssue[] = [];
  const byId = new Map(order.lines.map((l) => [l.id, l]));
  const removed = new Set<string>();
  ops.removeLineIds.forEach((id, i) => {
    if (!byId.has(id)) issues.push({ field: `removeLineIds.${i}`, message: 'is not a line of this order' });
    else if (removed.has(id)) issues.push({ field: `removeLineIds.${i}`, message: 'is named twice' });
    removed.add(id);
  });
  const quantities = new Map<string, number>();
  ops.quantities.forEach((q, i) => {
    if (!byId.has(q.lineItemId)) issues.push({ field: `quantities.${i}.lineItemId`, message: 'is not a line of this order' });
    else if (removed.has(q.lineItemId)) issues.push({ field: `quantities.${i}.lineItemId`, message: 'is also removed by removeLineIds' });
    else if (quantities.has(q.lineItemId)) issues.push({ field: `quantities.${i}.lineItemId`, message: 'is named twice' });
    quantities.set(q.lineItemId, q.quantity);
  });
  if (issues.length) throw validationFailed(issues);
  const kept: PlannedLine[] = order.lines
    .filter((l) => !removed.has(l.id))
    .map((l) => ({
      lineItemId: l.id,
      entityId: l.entityId,
      variantId: l.variantId,
      quantity: quantities.get(l.id) ?? l.quantity,
      previousQuantity: l.quantity,
      giftCardRecipient: null,
    }));
  const added: PlannedLine[] = ops.addLines.map((l) => ({
    lineItemId: null,
    entityId: l.entityId,
    variantId: l.variantId,
    quantity: l.quantity,
    previousQuantity: 0,
    giftCardRecipient: l.giftCardRecipient ?? null,
  }));
  const lines = [...kept, ...added];
  if (!lines.length) throw validationFailed([{ field: 'removeLineIds', message: 'an edit cannot remove every line: cancel the order instead' }]);
  return lines;
}

/** Whether the operations change anything at all. */
export function isEmpty(ops: EditOperations): boolean {
  return !ops.addLines.length && !ops.removeLineIds.length && !ops.quantities.length && !ops.shippingAddress;
}

/**
 * What the preview was made against: the order's status, payment figures, address and every
 * line's quantities and price. Any write to these (a fulfillment, a refund, a payment, another
 * edit) changes it.
 */
export function orderFingerprint(order: OrderRow): string {
  const state = {
    status: order.status,
    paymentStatus: order.paymentStatus,
    grandTotal: order.grandTotal.toString(),
    capturedAmount: order.capturedAmount.toString(),
    refundedAmount: order.refundedAmount.toString(),
    shippingAddress: order.shippingAddress,
    promotionCodes: order.promotionCodes,
    lines: order.lines.map((l) => [l.id, l.quantity, l.fulfilledQuantity, l.refundedQuantity, l.unitPrice.toString()]),
  };
  return createHash('sha256').update(JSON.stringify(state)).digest('hex');
}
