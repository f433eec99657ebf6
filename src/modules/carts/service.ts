// Carts: create (a guest cart gets a secret token), read with items, add an item (only active
// entities; the snapshot is the resolved price when one exists), change an item's quantity,
// remove it. Writes lock the cart row, so they serialize with each other and with checkout, and a
// checked-out cart refuses changes (409).
import type { Tx } from '../../db/client.js';
import { conflict, forbidden, notFound, validationFailed } from '../../errors.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import { portsOf } from '../checkout/wiring.js';
import { loadSellables, unsellableReason } from '../checkout/sellables.js';
import type { RequestContext } from '../../context.js';
import { serviceCtx, type OrdersCtx } from '../orders/shared.js';
import { actsForCustomers, assertCartReachable, newCartToken, requireCartPermission } from './access.js';
import { CART_INCLUDE, cartItemView, cartView, type CartView } from './views.js';
import './events.js';

/** Units of one item in one cart. */
export const MAX_ITEM_QUANTITY = 10_000;

/** Carts read the x-cart-token header of the request. */
export type CartCtx = OrdersCtx & Pick<RequestContext, 'request'>;

interface LockedCart {
  id: string;
  currency: string;
  customerId: string | null;
  tokenHash: string | null;
  status: string;
}

/** Locks a cart of the organization for the rest of the transaction; 404 when absent or unreachable. */
export async function lockCart(tx: Tx, ctx: CartCtx, id: string): Promise<LockedCart> {
  const rows = await tx.$queryRaw<Array<{ id: string; currency: string; customer_id: string | null; token_hash: string | null; status: string }>>`
    select id, currency, customer_id, token_hash, status::text as status from carts
    where id = ${id}::uuid and organization_id = ${ctx.organization.id}::uuid
    for update`;
  const row = rows[0];
  if (!row) throw notFound('Cart');
  const cart = { id: row.id, currency: row.currency, customerId: row.customer_id, tokenHash: row.token_hash, status: row.status };
  assertCartReachable(ctx, cart);
  return cart;
}

function assertOpen(cart: LockedCart): void {
  if (cart.status !== 'open') throw conflict('This cart has been checked out and can no longer change');
}

async function readCart(db: Tx | OrdersCtx['db'], id: string): Promise<CartView> {
  return cartView(await db.cart.findUniqueOrThrow({ where: { id }, include: CART_INCLUDE }));
}

export async function createCart(ctx: CartCtx, input: { currency: string; customerId?: string | null }): Promise<CartView> {
  requireCartPermission(ctx, 'create');
  let customerId: string | null = null;
  if (ctx.actor?.customerId) {
    if (input.customerId && input.customerId !== ctx.actor.customerId) throw forbidden('A customer creates carts for themselves only');
    customerId = ctx.actor.customerId;
  } else if (input.customerId) {
    if (!actsForCustomers(ctx)) throw forbidden('Creating a cart for a customer needs orders:create:on-behalf');
    const user = await ctx.db.user.findFirst({ where: { id: input.customerId, organizationId: ctx.organization.id }, select: { id: true } });
    if (!user) throw validationFailed([{ field: 'customerId', message: 'no such customer in this organization' }]);
    customerId = user.id;
  }
  const token = customerId ? null : newCartToken();
  const row = await ctx.db.cart.create({
    data: { organizationId: ctx.organization.id, currency: input.currency, customerId, tokenHash: token?.hash ?? null },
    include: CART_INCLUDE,
  });
  return cartView(row, token?.token ?? null);
}

export async function getCart(ctx: CartCtx, id: string): Promise<CartView> {
  requireCartPermission(ctx, 'read');
  const row = await ctx.db.cart.findFirst({ where: { id, organizationId: ctx.organization.id }, include: CART_INCLUDE });
  if (!row) throw notFound('Cart');
  assertCartReachable(ctx, row);
  return cartView(row);
}

export interface AddItemInput {
  entityId: string;
  variantId?: string | null;
  quantity: number;
  unitPriceSnapshot?: number | null;
}

export async function addCartItem(ctx: CartCtx, cartId: string, input: AddItemInput): Promise<CartView> {
  requireCartPermission(ctx, 'update');
  return ctx.db.$transaction(async (tx) => {
    const cart = await lockCart(tx, ctx, cartId);
    assertOpen(cart);
    const variantId = input.variantId ?? null;
    const [sellable] = await loadSellables(tx, ctx.organization.id, [{ entityId: input.entityId, variantId }]);
    const reason = unsellableReason(sellable ?? null);
    if (reason) throw validationFailed([{ field: sellable?.variantMissing ? 'variantId' : 'entityId', message: reason }], `This item cannot be added: ${reason}`);

    const existing = await tx.cartItem.findFirst({ where: { cartId: cart.id, entityId: input.entityId, variantId } });
    const quantity = (existing?.quantity ?? 0) + input.quantity;
    if (quantity > MAX_ITEM_QUANTITY) throw validationFailed([{ field: 'quantity', message: `at most ${MAX_ITEM_QUANTITY} units of one item per cart` }]);
    const [resolved] = await portsOf(ctx.services).prices.resolve(serviceCtx(ctx, tx), [{ entityId: input.entityId, variantId, currency: cart.currency, customerGroupIds: [], quantity }]);
    const unitPrice = resolved ?? input.unitPriceSnapshot ?? null;
    if (unitPrice === null) throw validationFailed([{ field: 'unitPriceSnapshot', message: `this item has no price in ${cart.currency}: send unitPriceSnapshot` }]);

    const item = existing
      ? await tx.cartItem.update({ where: { id: existing.id }, data: { quantity, unitPriceSnapshot: BigInt(unitPrice) } })
      : await tx.cartItem.create({ data: { organizationId: ctx.organization.id, cartId: cart.id, entityId: input.entityId, variantId, quantity, unitPriceSnapshot: BigInt(unitPrice) } });
    await tx.cart.update({ where: { id: cart.id }, data: { updatedAt: new Date() } });
    const view = cartItemView(item);
    await recordEvent(tx, originOf(ctx), 'cart.afterAddItem', {
      cart: { id: cart.id, currency: cart.currency, customerId: cart.customerId },
      item: { ...view, createdAt: view.createdAt.toISOString(), updatedAt: view.updatedAt.toISOString() },
      addedQuantity: input.quantity,
    });
    return readCart(tx, cart.id);
  });
}

async function findItem(tx: Tx, cartId: string, itemId: string) {
  const item = await tx.cartItem.findFirst({ where: { id: itemId, cartId } });
  if (!item) throw notFound('Cart item');
  return item;
}

export async function updateCartItem(ctx: CartCtx, cartId: string, itemId: string, input: { quantity: number }): Promise<CartView> {
  requireCartPermission(ctx, 'update');
  return ctx.db.$transaction(async (tx) => {
    const cart = await lockCart(tx, ctx, cartId);
    assertOpen(cart);
    const item = await findItem(tx, cart.id, itemId);
    await tx.cartItem.update({ where: { id: item.id }, data: { quantity: input.quantity } });
    await tx.cart.update({ where: { id: cart.id }, data: { updatedAt: new Date() } });
    return readCart(tx, cart.id);
  });
}

export async function removeCartItem(ctx: CartCtx, cartId: string, itemId: string): Promise<CartView> {
  requireCartPermission(ctx, 'update');
  return ctx.db.$transaction(async (tx) => {
    const cart = await lockCart(tx, ctx, cartId);
    assertOpen(cart);
    const item = await findItem(tx, cart.id, itemId);
    await tx.cartItem.delete({ where: { id: item.id } });
    await tx.cart.update({ where: { id: cart.id }, data: { updatedAt: new Date() } });
    return readCart(tx, cart.id);
  });
}
