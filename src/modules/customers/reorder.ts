// POST /me/orders/:orderId/reorder: a new cart of the customer filled with an earlier order's
// lines at today's prices. A line that can no longer be sold (archived, deleted, no price in the
// order's currency any more) is reported in meta.skipped with its reason; the rest still lands.
// The cart and its items are written in one transaction.
import { withTransaction } from '../../db/transaction.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import { CART_INCLUDE, cartView, type CartView } from '../carts/views.js';
import { loadSellables, unsellableReason } from '../checkout/sellables.js';
import { portsOf } from '../checkout/wiring.js';
import { serviceCtx } from '../orders/shared.js';
import { myOrder, requireCustomer, type CustomersCtx } from './service.js';

export interface SkippedLine {
  lineItemId: string;
  entityId: string;
  variantId: string | null;
  sku: string;
  title: string;
  quantity: number;
  reason: string;
}

export interface ReorderResult {
  data: CartView;
  meta: { orderId: string; orderNumber: string; skipped: SkippedLine[] };
}

export async function reorder(ctx: CustomersCtx, idOrNumber: string): Promise<ReorderResult> {
  const customer = await requireCustomer(ctx);
  const order = await myOrder(ctx, idOrNumber);
  return withTransaction(ctx, async (tx) => {
    const lines = order.lineItems;
    const sellables = await loadSellables(
      tx,
      ctx.organization.id,
      lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId })),
    );
    const prices = await portsOf(ctx.services).prices.resolve(
      serviceCtx(ctx, tx),
      lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId, currency: order.currency, customerGroupIds: customer.customerGroupIds, quantity: l.quantity })),
    );
    const skipped: SkippedLine[] = [];
    const items: Array<{ entityId: string; variantId: string | null; quantity: number; unitPriceSnapshot: bigint }> = [];
    lines.forEach((line, i) => {
      const reason = unsellableReason(sellables[i] ?? null) ?? (prices[i] == null ? `no longer priced in ${order.currency}` : null);
      const base = { lineItemId: line.lineItemId, entityId: line.entityId, variantId: line.variantId, sku: line.sku, title: line.title, quantity: line.quantity };
      if (reason) return void skipped.push({ ...base, reason });
      // Two lines of one item in the old order become one cart item, as adding twice would.
      const same = items.find((it) => it.entityId === line.entityId && it.variantId === line.variantId);
      if (same) same.quantity += line.quantity;
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      else items.push({ entityId: line.entityId, variantId: line.variantId, quantity: line.quantity, unitPriceSnapshot: BigInt(prices[i]!) });
    });
    const cart = await tx.cart.create({
      data: {
        organizationId: ctx.organization.id,
        currency: order.currency,
        customerId: customer.id,
        items: { create: items.map((item) => ({ ...item, organizationId: ctx.organization.id })) },
      },
      include: CART_INCLUDE,
    });
    const view = cartView(cart);
    for (const item of view.items) {
      await recordEvent(tx, originOf(ctx), 'cart.afterAddItem', {
        cart: { id: cart.id, currency: cart.currency, customerId: cart.customerId },
        item: { ...item, createdAt: item.createdAt.toISOString(), updatedAt: item.updatedAt.toISOString() },
        addedQuantity: item.quantity,
      });
    }
    return { data: view, meta: { orderId: order.id, orderNumber: order.number, skipped } };
  });
}
