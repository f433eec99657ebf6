// Order edits (issue 27): an edit is previewed (the order's new lines priced by checkout's own
// pricing path — pricing.ts: promotions, shipping, tax), then confirmed or cancelled.
//   - kept lines keep the unit price they were sold at; added lines are priced today (the
//     shopper's agreed prices never move under them); promotions, shipping and tax are
//     recomputed over the new lines and address;
//   - the preview runs in a nested transaction (a savepoint) that is rolled back, so the
//     promotion uses it re-redeems are not recorded;
//   - confirm locks the order, refuses an order changed since the preview (fingerprint) or whose
//     recomputed totals differ from the preview (409 EDIT_STALE), then applies in one transaction:
//     lines, totals, shipping line, address, promotion uses, stock reservations (released for
//     removed units, reserved for added ones) and the payment difference. What is owed is
//     newTotal − paid, where paid = capturedAmount − refundedAmount: gift cards, store credit, an
//     exchange credit and provider captures, less what went back (the edit never asks the
//     provider for what the tenders already paid):
//       total unchanged    → nothing moves
//       an open provider payment (started or authorized, nothing captured on it):
//         authorized, owed ≤ its authorization → nothing moves: the capture takes what the order
//                            owes (grandTotal − capturedAmount), not more
//         otherwise        → the open payment is voided (payments/capture.ts voidOnCancel: in
//                            this transaction, the provider told after commit) and, when
//                            something is owed, that amount is authorized through checkout's path
//                            (payments/authorize.ts): a new payment record; the provider's event
//                            confirms the order as at checkout
//       owed < 0           → the excess is refunded through the refund service (undo window, daily
//                            cap): gift cards first, then store credit, then provider captures
//       owed > 0, no open payment (paid)
//                          → partially_paid: the order awaits the difference, which the customer
//                            pays outside the edit (nothing is charged to the stored method
//                            without them)
//     The order's paymentStatus is then derived from its payment records (payments/records.ts).
import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/client.js';
import { AppError, conflict, notFound, validationFailed } from '../../errors.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { priceOrder, type PricedOrder } from '../checkout/pricing.js';
import { loadSellables, recordedSellable, unsellableReason, type Sellable } from '../checkout/sellables.js';
import { portsOf } from '../checkout/wiring.js';
import { refundAmount, settleIfImmediate } from '../orders/refunds.js';
import { findOrder, lockOrder, recordStatusChange, runAfterCommit } from '../orders/service.js';
import { actorRecord, orgSettings, serviceCtx, toNumber, type OrdersCtx } from '../orders/shared.js';
import { at, entry } from '../orders/at.js';
import { inTransaction } from '../orders/tx.js';
import type { OrderRow } from '../orders/views.js';
import { authorizeOrderPayment, defaultReturnUrl, insertPayment, releaseAuthorization, type StartedPayment } from '../payments/authorize.js';
import { paymentAttemptRoot } from '../payments/attempts.js';
import { providerOf, voidOnCancel } from '../payments/capture.js';
import type { PaymentProvider } from '../payments/provider.js';
import { capturable, lockPayments, syncOrderPayment } from '../payments/records.js';
import { LEDGER_TENDERS } from '../payments/refunds.js';
import { isGiftCardType } from '../gift-cards/product.js';
import { isEmpty, normalizeOperations, orderFingerprint, planLines, type EditOperations, type PlannedLine } from './plan.js';
import { EDITABLE_ORDER_STATUSES, editTransition, type EditTrigger, type PaymentAction } from './status.js';
import { editPayload, editView, type EditLineView, type EditSnapshot, type EditView } from './views.js';

export const EDIT_REASON_MAX = 500;

export type EditInput = Parameters<typeof normalizeOperations>[0] & { reason?: string | null };

function stale(reason: string, details: Record<string, unknown> = {}): AppError {
  return conflict(`This edit's preview is stale: ${reason}. Preview the edit again.`, { reason: 'EDIT_STALE', ...details });
}

function assertEditable(order: OrderRow): void {
  if (!EDITABLE_ORDER_STATUSES.includes(order.status)) {
    throw conflict(`An order in status ${order.status} cannot be edited (only ${EDITABLE_ORDER_STATUSES.join(', ')})`, { status: order.status });
  }
  if (order.lines.some((l) => l.fulfilledQuantity > 0)) throw conflict('An order with fulfilled units cannot be edited', { status: order.status });
  if (order.lines.some((l) => l.refundedQuantity > 0)) throw conflict('An order with refunded lines cannot be edited', { status: order.status });
}

function snapshotOfOrder(order: OrderRow): EditSnapshot {
  return {
    lineItems: order.lines.map((l) => ({
      lineItemId: l.id,
      entityId: l.entityId,
      variantId: l.variantId,
      sku: l.sku,
      title: l.title,
      quantity: l.quantity,
      unitPrice: toNumber(l.unitPrice),
      totalPrice: toNumber(l.totalPrice),
      discountTotal: toNumber(l.discountTotal),
      taxTotal: toNumber(l.taxTotal),
    })),
    subtotal: toNumber(order.subtotal),
    discountTotal: toNumber(order.discountTotal),
    taxTotal: toNumber(order.taxTotal),
    shippingTotal: toNumber(order.shippingTotal),
    grandTotal: toNumber(order.grandTotal),
    shippingAddress: (order.shippingAddress as Record<string, unknown> | null) ?? null,
  };
}

interface Computed {
  planned: PlannedLine[];
  sellables: Sellable[];
  unitPrices: number[];
  priced: PricedOrder;
  address: Record<string, unknown> | null;
  after: EditSnapshot;
}

/**
 * Prices the edited order inside `tx`: gives the order's promotion uses back and redeems its codes
 * again over the new lines (the caller rolls this back for a preview).
 */
async function computeEdit(tx: Tx, ctx: OrdersCtx, order: OrderRow, ops: EditOperations): Promise<Computed> {
  const planned = planLines(order, ops);
  const byId = new Map(order.lines.map((l) => [l.id, l]));
  const found = await loadSellables(
    tx,
    ctx.organization.id,
    planned.map((p) => ({ entityId: p.entityId, variantId: p.variantId })),
  );
  const issues: Array<{ field: string; message: string }> = [];
  const firstAdded = planned.findIndex((p) => p.lineItemId === null);
  const sellables: Sellable[] = [];
  planned.forEach((p, i) => {
    const sellable = found[i] ?? null;
    if (p.lineItemId) {
      sellables.push(sellable ?? recordedSellable(entry(byId, p.lineItemId)));
      return;
    }
    const reason = unsellableReason(sellable);
    if (reason || !sellable) issues.push({ field: `addLines.${i - firstAdded}.entityId`, message: reason ?? 'catalog entity not found' });
    else sellables.push(sellable);
    // As a cart item: only a gift-card product names who receives its cards.
    if (p.giftCardRecipient && sellable && !isGiftCardType(sellable.entityType))
      issues.push({ field: `addLines.${i - firstAdded}.giftCardRecipient`, message: 'only a gift-card product (entity type giftCard) takes a recipient' });
  });
  if (issues.length) throw validationFailed(issues);
  await assertIssuedCardsKept(tx, order, planned);
  const ports = portsOf(ctx.services);
  const addedIdx = planned.map((p, i) => (p.lineItemId ? -1 : i)).filter((i) => i >= 0);
  const resolved = await ports.prices.resolve(
    serviceCtx(ctx, tx),
    addedIdx.map((i) => ({
      entityId: at(planned, i).entityId,
      variantId: at(planned, i).variantId,
      currency: order.currency,
      customerGroupIds: order.customerGroupIds,
      quantity: at(planned, i).quantity,
    })),
  );
  const unitPrices = planned.map((p) => (p.lineItemId ? toNumber(entry(byId, p.lineItemId).unitPrice) : 0));
  addedIdx.forEach((lineIndex, k) => {
    const price = resolved[k];
    if (price === null || price === undefined) issues.push({ field: `addLines.${lineIndex - firstAdded}.entityId`, message: `has no price in ${order.currency}` });
    else unitPrices[lineIndex] = price;
  });
  if (issues.length) throw validationFailed(issues);

  const settings = await orgSettings(tx, ctx.organization.id);
  const shippingLines = await tx.orderShippingLine.findMany({ where: { orderId: order.id, organizationId: ctx.organization.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const address = (ops.shippingAddress as unknown as Record<string, unknown> | null) ?? (order.shippingAddress as Record<string, unknown> | null);
  const applied = ((order.pricing as { promotions?: Array<{ redemptionId?: string }> } | null)?.promotions ?? []).map((p) => p.redemptionId).filter((id): id is string => !!id);
  if (applied.length) await ports.promotions.release(serviceCtx(ctx, tx), applied);
  const priced = await priceOrder(
    tx,
    ctx,
    {
      currency: order.currency,
      groups: order.customerGroupIds,
      address: (address ?? { country: '' }) as { country: string },
      customerId: order.customerId,
      orderId: order.id,
      codes: order.promotionCodes,
      settings,
      lines: planned.map((p, i) => ({ entityId: p.entityId, variantId: p.variantId, quantity: p.quantity, unitPrice: at(unitPrices, i), sellable: at(sellables, i) })),
      // The order keeps its shipping method; an order placed without one keeps the flat rule.
      shipping: { enabled: shippingLines.length > 0, methodId: shippingLines[0]?.methodId ?? null, cartMethodId: null, cartId: order.cartId },
    },
    (error) => validationFailed([{ field: 'promotionCodes', message: `the edited order no longer qualifies for the order's promotion codes: ${error.message}` }]),
  );
  const after: EditSnapshot = {
    lineItems: planned.map(
      (p, i): EditLineView => ({
        lineItemId: p.lineItemId,
        entityId: p.entityId,
        variantId: p.variantId,
        sku: at(sellables, i).sku,
        title: at(sellables, i).title,
        quantity: p.quantity,
        unitPrice: at(unitPrices, i),
        ...at(priced.totals.lines, i),
      }),
    ),
    subtotal: priced.totals.subtotal,
    discountTotal: priced.totals.discountTotal,
    taxTotal: priced.totals.taxTotal,
    shippingTotal: priced.totals.shippingTotal,
    grandTotal: priced.totals.grandTotal,
    shippingAddress: address,
  };
  return { planned, sellables, unitPrices, priced, address, after };
}

/**
 * A gift-card line whose cards were issued keeps at least that many units: an edit that lowered or
 * removed it would hand money back for cards that stay spendable (a refund of the line revokes
 * them instead). Live and revoked cards both count, as the issuing job counts them, so no unit is
 * ever issued twice. One statement, only for orders with gift-card lines.
 */
async function assertIssuedCardsKept(tx: Tx, order: OrderRow, planned: PlannedLine[]): Promise<void> {
  const giftLines = order.lines.filter((l) => isGiftCardType(l.entityType));
  if (!giftLines.length) return;
  const issued = await tx.giftCard.groupBy({ by: ['sourceOrderLineId'], where: { sourceOrderLineId: { in: giftLines.map((l) => l.id) } }, _count: true });
  const kept = new Map(planned.filter((p) => p.lineItemId).map((p) => [p.lineItemId, p.quantity]));
  const short = issued.filter((row) => row.sourceOrderLineId && (kept.get(row.sourceOrderLineId) ?? 0) < row._count);
  if (short.length) {
    throw conflict('The gift cards of this line were already issued: it cannot be lowered or removed by an edit (refund the line instead, which revokes unused cards)', {
      reason: 'GIFT_CARDS_ISSUED',
      lines: short.map((row) => ({ lineItemId: row.sourceOrderLineId, issued: row._count })),
    });
  }
}

/** Thrown to roll a preview's nested transaction back while keeping its result. */
class PreviewRollback extends Error {
  constructor(readonly computed: Computed) {
    super('preview rollback');
  }
}

async function preview(tx: Tx, ctx: OrdersCtx, order: OrderRow, ops: EditOperations): Promise<Computed> {
  try {
    await (tx as unknown as Db).$transaction(async (inner) => {
      throw new PreviewRollback(await computeEdit(inner, ctx, order, ops));
    });
  } catch (error) {
    if (error instanceof PreviewRollback) return error.computed;
    throw error;
  }
  throw new Error('unreachable: the preview transaction always rolls back');
}

/** POST /orders/:id/edits: a pending edit with its preview. */
export async function createEdit(ctx: OrdersCtx, orderId: string, input: EditInput): Promise<EditView> {
  const ops = normalizeOperations(input);
  if (isEmpty(ops)) throw validationFailed([{ field: 'addLines', message: 'name at least one operation: addLines, removeLineIds, quantities or shippingAddress' }]);
  const actor = actorRecord(ctx);
  return inTransaction(ctx.db, async (tx) => {
    const order = await lockOrder(tx, ctx, orderId);
    assertEditable(order);
    const computed = await preview(tx, ctx, order, ops);
    const before = snapshotOfOrder(order);
    const row = await tx.orderEdit.create({
      data: {
        organizationId: ctx.organization.id,
        orderId: order.id,
        operations: ops as unknown as Prisma.InputJsonValue,
        before: before as unknown as Prisma.InputJsonValue,
        after: computed.after as unknown as Prisma.InputJsonValue,
        orderFingerprint: orderFingerprint(order),
        difference: BigInt(computed.after.grandTotal - before.grandTotal),
        reason: input.reason ?? null,
        createdById: actor.id,
        createdByKind: actor.kind,
      },
    });
    const view = editView(row);
    await recordEvent(tx, originOf(ctx), 'orders.edit', { action: 'created', edit: editPayload(view) });
    return view;
  });
}

async function lockEdit(tx: Tx, ctx: OrdersCtx, orderId: string, editId: string) {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    select id from order_edits where id = ${editId}::uuid and order_id = ${orderId}::uuid and organization_id = ${ctx.organization.id}::uuid for update`;
  if (!rows[0]) throw notFound('Order edit');
  return tx.orderEdit.findUniqueOrThrow({ where: { id: editId } });
}

function illegalMove(status: string, trigger: EditTrigger): AppError {
  const to = trigger === 'confirm' ? 'confirmed' : 'cancelled';
  return conflict(`An edit that is ${status} cannot be ${to}: only a pending edit moves`, { reason: 'INVALID_TRANSITION', from: status, to });
}

/** POST /orders/:id/edits/:editId/cancel. */
export async function cancelEdit(ctx: OrdersCtx, orderId: string, editId: string): Promise<EditView> {
  const actor = actorRecord(ctx);
  return inTransaction(ctx.db, async (tx) => {
    const order = await lockOrder(tx, ctx, orderId);
    const edit = await lockEdit(tx, ctx, order.id, editId);
    if (!editTransition(edit.status, 'cancel')) throw illegalMove(edit.status, 'cancel');
    const row = await tx.orderEdit.update({ where: { id: edit.id }, data: { status: 'cancelled', decidedById: actor.id, decidedByKind: actor.kind, decidedAt: new Date() } });
    const view = editView(row);
    await recordEvent(tx, originOf(ctx), 'orders.edit', { action: 'cancelled', edit: editPayload(view) });
    return view;
  });
}

function sameTotals(a: EditSnapshot, b: EditSnapshot): boolean {
  const key = (s: EditSnapshot) =>
    JSON.stringify([s.subtotal, s.discountTotal, s.taxTotal, s.shippingTotal, s.grandTotal, s.lineItems.map((l) => [l.quantity, l.unitPrice, l.discountTotal, l.taxTotal])]);
  return key(a) === key(b);
}

/** POST /orders/:id/edits/:editId/confirm. */
export async function confirmEdit(ctx: OrdersCtx, orderId: string, editId: string): Promise<EditView> {
  const actor = actorRecord(ctx);
  const afterCommit: Array<() => Promise<void>> = [];
  let refundId: string | null = null;
  // The edit is the payment's logical attempt (payments/attempts.ts): a retried transaction, or a
  // retry of this request after a crash, authorizes under the same id and provider key.
  const started: Started = { paymentId: paymentAttemptRoot(ctx.organization.id, `edit:${editId}`), provider: null, payment: null };
  let view: EditView;
  try {
    view = await inTransaction(
      ctx.db,
      async (tx) => {
        afterCommit.length = 0;
        refundId = null;
        const order = await lockOrder(tx, ctx, orderId);
        const edit = await lockEdit(tx, ctx, order.id, editId);
        if (!editTransition(edit.status, 'confirm')) throw illegalMove(edit.status, 'confirm');
        assertEditable(order);
        if (orderFingerprint(order) !== edit.orderFingerprint) throw stale('the order changed since the preview');
        const ops = edit.operations as unknown as EditOperations;
        const computed = await computeEdit(tx, ctx, order, ops);
        if (!sameTotals(computed.after, edit.after as unknown as EditSnapshot))
          throw stale('prices, promotions, tax or shipping changed since the preview', {
            previewGrandTotal: (edit.after as unknown as EditSnapshot).grandTotal,
            grandTotal: computed.after.grandTotal,
          });

        const lineIds = await applyLines(tx, ctx, order, computed);
        const after: EditSnapshot = { ...computed.after, lineItems: computed.after.lineItems.map((l, i) => ({ ...l, lineItemId: at(lineIds, i) })) };
        const payment = await settlePayment(tx, ctx, order, computed.after.grandTotal, edit.id, afterCommit, started);
        refundId = payment.refundId;
        const row = await tx.orderEdit.update({
          where: { id: edit.id },
          data: {
            status: 'confirmed',
            after: after as unknown as Prisma.InputJsonValue,
            paymentAction: payment.action,
            refundId: payment.refundId,
            decidedById: actor.id,
            decidedByKind: actor.kind,
            decidedAt: new Date(),
          },
        });
        const result = editView(row);
        await recordEvent(tx, originOf(ctx), 'orders.edit', { action: 'confirmed', edit: editPayload(result) });
        return result;
      },
      { timeout: ctx.services.payments.timeoutMs + 15_000 },
    );
  } catch (error) {
    // Re-authorized, then rolled back: give the new authorization back.
    if (started.provider) await releaseAuthorization(ctx, started.provider, started.payment, 'order edit');
    throw error;
  }
  await runAfterCommit(afterCommit);
  if (refundId) await settleIfImmediate(ctx, refundId);
  return view;
}

/**
 * Writes the edited lines, the order's totals, address and pricing, its shipping line, and moves
 * the stock: removed units' reservations are released, added units reserved (in a fixed order,
 * as checkout does). Returns the line ids, index for index with computed.planned.
 */
async function applyLines(tx: Tx, ctx: OrdersCtx, order: OrderRow, c: Computed): Promise<string[]> {
  const ports = portsOf(ctx.services);
  const reference = `order:${order.id}`;
  const byId = new Map(order.lines.map((l) => [l.id, l]));
  const kept = new Set(c.planned.map((p) => p.lineItemId).filter((id): id is string => !!id));
  type Reservation = { warehouseId: string; quantity: number };
  const reservations = new Map<string, Reservation[]>(order.lines.map((l) => [l.id, [...((l.reservations ?? []) as Reservation[])].map((r) => ({ ...r }))]));

  // 1. give back what removed lines and lowered quantities no longer need (last warehouse first)
  const releases: Array<{ entityId: string; variantId: string | null; warehouseId: string; quantity: number; reference: string }> = [];
  for (const line of order.lines) {
    const target = kept.has(line.id) ? (c.planned.find((p) => p.lineItemId === line.id)?.quantity ?? 0) : 0;
    let excess = line.quantity - target;
    const held = entry(reservations, line.id);
    for (let i = held.length - 1; i >= 0 && excess > 0; i -= 1) {
      const slot = at(held, i);
      const take = Math.min(excess, slot.quantity);
      if (take > 0) releases.push({ entityId: line.entityId, variantId: line.variantId, warehouseId: slot.warehouseId, quantity: take, reference });
      slot.quantity -= take;
      excess -= take;
    }
    reservations.set(
      line.id,
      held.filter((r) => r.quantity > 0),
    );
  }
  if (releases.length) await ports.inventory.release(serviceCtx(ctx, tx), releases);

  // 2. reserve what raised quantities and added lines need, in checkout's lock order
  // Gift-card lines are issued, not picked: as at checkout they hold no stock.
  const wants = c.planned.map((p, i) => ({ i, extra: p.quantity - p.previousQuantity })).filter((w) => w.extra > 0 && !isGiftCardType(at(c.sellables, w.i).entityType));
  wants.sort((a, b) => {
    const x = at(c.planned, a.i);
    const y = at(c.planned, b.i);
    return x.entityId.localeCompare(y.entityId) || (x.variantId ?? '').localeCompare(y.variantId ?? '');
  });
  const lineIds = c.planned.map((p) => p.lineItemId ?? randomUUID());
  if (wants.length) {
    const got = await ports.inventory
      .reserve(
        serviceCtx(ctx, tx),
        wants.map((w) => ({
          entityId: at(c.planned, w.i).entityId,
          variantId: at(c.planned, w.i).variantId,
          quantity: w.extra,
          reference,
          warehouseId: c.priced.pickupWarehouseId,
        })),
      )
      .catch((error: unknown) => {
        throw error instanceof AppError ? conflict(`Not enough stock for the edit: ${error.message}`, { step: 'inventory', code: error.code }) : error;
      });
    wants.forEach((w, k) => {
      const id = at(lineIds, w.i);
      const held = reservations.get(id) ?? [];
      for (const r of got[k] ?? []) {
        const same = held.find((h) => h.warehouseId === r.warehouseId);
        if (same) same.quantity += r.quantity;
        else held.push({ warehouseId: r.warehouseId, quantity: r.quantity });
      }
      reservations.set(id, held);
    });
  }

  // 3. the lines
  const removed = order.lines.filter((l) => !kept.has(l.id)).map((l) => l.id);
  if (removed.length) await tx.orderLine.deleteMany({ where: { id: { in: removed }, orderId: order.id } });
  const { totals, rates, providerRates } = c.priced;
  const figures = (i: number) => ({
    position: i,
    quantity: at(c.planned, i).quantity,
    unitPrice: BigInt(at(c.unitPrices, i)),
    totalPrice: BigInt(at(totals.lines, i).totalPrice),
    discountTotal: BigInt(at(totals.lines, i).discountTotal),
    taxClassId: at(rates, i).taxClassId,
    taxRateBps: providerRates?.[i] ?? at(rates, i).rateBps,
    taxTotal: BigInt(at(totals.lines, i).taxTotal),
    reservations: (reservations.get(at(lineIds, i)) ?? []) as unknown as Prisma.InputJsonValue,
  });
  for (let i = 0; i < c.planned.length; i += 1) {
    const p = at(c.planned, i);
    if (p.lineItemId && byId.has(p.lineItemId)) await tx.orderLine.update({ where: { id: p.lineItemId }, data: figures(i) });
  }
  const added = c.planned.map((p, i) => ({ p, i })).filter(({ p }) => !p.lineItemId);
  if (added.length) {
    await tx.orderLine.createMany({
      data: added.map(({ p, i }) => ({
        id: at(lineIds, i),
        organizationId: ctx.organization.id,
        orderId: order.id,
        entityId: p.entityId,
        variantId: p.variantId,
        entityType: at(c.sellables, i).entityType,
        sku: at(c.sellables, i).sku,
        title: at(c.sellables, i).title,
        // Stored as checkout stores a cart item's: the issuing job reads it once the order is paid.
        ...(p.giftCardRecipient && isGiftCardType(at(c.sellables, i).entityType) ? { giftCardRecipient: p.giftCardRecipient as unknown as Prisma.InputJsonValue } : {}),
        ...figures(i),
      })),
    });
  }

  // 4. shipping line, totals, address, pricing
  const option = c.priced.shippingOption;
  if (option) {
    const line = await tx.orderShippingLine.findFirst({ where: { orderId: order.id, organizationId: ctx.organization.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    if (line)
      await tx.orderShippingLine.update({
        where: { id: line.id },
        data: { amount: BigInt(at(totals.shippingLines, 0).amount), taxTotal: BigInt(at(totals.shippingLines, 0).taxTotal), taxRateBps: option.taxRateBps },
      });
  }
  const pricing = {
    ...((order.pricing as Record<string, unknown> | null) ?? {}),
    promotions: c.priced.redemption.applied,
    freeShipping: c.priced.redemption.freeShipping,
    ...c.priced.tax.pricing,
  };
  await tx.order.update({
    where: { id: order.id },
    data: {
      subtotal: BigInt(totals.subtotal),
      discountTotal: BigInt(totals.discountTotal),
      taxTotal: BigInt(totals.taxTotal),
      shippingTotal: BigInt(totals.shippingTotal),
      grandTotal: BigInt(totals.grandTotal),
      shippingAddress: (c.address ?? undefined) as Prisma.InputJsonValue | undefined,
      pricing: pricing as unknown as Prisma.InputJsonValue,
    },
  });
  return lineIds;
}

/** The provider-side state of confirmEdit: a payment started in a transaction that may still roll back. */
interface Started {
  paymentId: string;
  provider: PaymentProvider | null;
  payment: StartedPayment | null;
}

/** A provider payment still waiting for its money: started or authorized, nothing captured on it. */
function isOpen(p: { status: string; capturedAmount: bigint }): boolean {
  return (p.status === 'pending' || p.status === 'requires_action' || p.status === 'authorized') && p.capturedAmount === 0n;
}

/** Moves the payment difference (see the header). */
async function settlePayment(
  tx: Tx,
  ctx: OrdersCtx,
  order: OrderRow,
  newTotal: number,
  editId: string,
  afterCommit: Array<() => Promise<void>>,
  started: Started,
): Promise<{ action: PaymentAction; refundId: string | null }> {
  // The total did not move (an address change): what is owed and the payments stay as they are.
  if (newTotal === toNumber(order.grandTotal)) return { action: 'none', refundId: null };
  const payments = await lockPayments(tx, ctx.organization.id, order.id);
  // What the order has already been paid, net: gift cards, store credit, an exchange credit and
  // provider captures, less what went (or is going) back. The edit moves only newTotal − paid.
  const paid = toNumber(order.capturedAmount) - toNumber(order.refundedAmount);
  const owed = newTotal - paid;
  const open = payments.filter(isOpen);
  const derive = async () => {
    const current = await tx.order.findUniqueOrThrow({ where: { id: order.id }, select: { id: true, grandTotal: true, paymentStatus: true, capturedAmount: true } });
    await syncOrderPayment(tx, current);
  };
  let action: PaymentAction = 'none';
  let refundId: string | null = null;
  if (open.length) {
    const authorized = open.reduce((sum, p) => sum + capturable(p), 0);
    // Manual / on-fulfilment capture: an authorization that covers what is still owed stays; the
    // capture takes grandTotal − capturedAmount (payments/capture.ts), not the whole authorization.
    if (owed > 0 && open.every((p) => p.status === 'authorized') && owed <= authorized) return { action: 'authorization_covers', refundId: null };
    // Invoice terms (a draft completed with paymentPending) have no stored method: nothing to re-authorize.
    const methodId = order.paymentMethodId;
    if (owed > 0 && !methodId) return { action: 'none', refundId: null };
    // The open payment no longer fits what is owed: voided as a cancellation voids it (in this
    // transaction, the provider told after commit), keeping the order's tenders.
    const provider = order.paymentProvider && !LEDGER_TENDERS.has(order.paymentProvider) ? providerOf(ctx, order.paymentProvider) : ctx.services.payments.provider;
    const voided = await voidOnCancel(tx, ctx, order);
    if (voided) afterCommit.push(...voided.afterCommit);
    if (owed > 0 && methodId) {
      const settings = await orgSettings(tx, ctx.organization.id);
      started.provider = provider;
      started.payment = await authorizeOrderPayment(
        tx,
        ctx,
        provider,
        {
          paymentId: started.paymentId,
          orderId: order.id,
          amount: owed,
          currency: order.currency,
          methodId,
          captureMode: open.at(-1)?.captureMode ?? settings.payments.capture,
          returnUrl: defaultReturnUrl(ctx),
          customerEmail: order.customerEmail,
          actionExpiryMinutes: settings.payments.actionExpiryMinutes,
        },
        {
          declined: (failure) => conflict(`The payment for the edited total was refused: ${failure.message}`, { step: 'payment', paymentCode: failure.code }),
          unreachable: () => new AppError('SERVICE_UNAVAILABLE', 'The payment provider could not be reached; nothing was changed, try again', { reason: 'provider_unreachable' }),
        },
      );
      await insertPayment(tx, started.payment);
      await tx.order.update({ where: { id: order.id }, data: { paymentIntentId: started.payment.providerReference, paymentProvider: provider.name } });
      action = 'reissued_intent';
    }
  } else if (owed > 0) {
    // A paid order whose total rose: the difference is collected outside this edit (a new payment
    // from the customer); nothing is charged to the stored method without them.
    action = 'awaiting_difference';
  }
  // What was paid above the new total goes back through the refund rules (tenders first: their
  // card or account, then the provider's captures; orders/refunds.ts settleRefund).
  if (owed < 0) {
    const refund = await refundAmount(tx, ctx, order, -owed, `order edit ${editId}`);
    refundId = refund.id;
    action = 'refund';
  }
  await derive();
  // An order still waiting for its provider whose tenders now cover the edited total has nothing
  // left to wait for: confirmed now, as a checkout paid in full by tenders is.
  if (order.status === 'pending' && open.length && owed <= 0) {
    await tx.order.update({ where: { id: order.id }, data: { status: 'confirmed' } });
    await recordStatusChange(tx, ctx, order.id, 'pending', 'confirmed', {
      trigger: 'payment',
      reason: 'paid by its gift cards and store credit after an edit',
      actor: actorRecord(ctx),
    });
  }
  return { action, refundId };
}

/** GET /orders/:id/edits, newest first. */
export async function listEdits(ctx: OrdersCtx, orderId: string): Promise<EditView[]> {
  const order = await findOrder(ctx, orderId);
  const rows = await ctx.db.orderEdit.findMany({ where: { orderId: order.id, organizationId: ctx.organization.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return rows.map(editView);
}
