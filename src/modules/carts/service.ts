// Carts: create (a guest cart gets a secret token), read with items, add an item (only active
// entities; the snapshot is the resolved price when one exists), change an item's quantity,
// remove it. Writes lock the cart row, so they serialize with each other and with checkout, and a
// checked-out cart refuses changes (409).
import { directTransaction, type Tx } from '../../db/client.js';
import { rawExecute, rawQuery } from '../../db/direct.js';
import { conflict, forbidden, notFound, validationFailed } from '../../errors.js';
import { randomUUID } from 'node:crypto';
import { eventInsertSql, originOf } from '../../events/outbox.js';
import { Prisma, type Cart, type CartItem } from '../../generated/prisma/client.js';
import { portsOf } from '../checkout/wiring.js';
import { SELLABLE_COLUMNS, sellableFrom, unsellableIssue, unsellableReason, type Sellable, type SellableRequest, type SellableRow } from '../checkout/sellables.js';
import type { RequestContext } from '../../context.js';
import { serviceCtx, type OrdersCtx } from '../orders/shared.js';
import { actsForCustomers, assertCartReachable, newCartToken, requireCartPermission } from './access.js';
import { CART_INCLUDE, cartItemView, cartView, type CartView } from './views.js';
import './events.js';
import { isGiftCardType, type GiftCardRecipient } from '../gift-cards/product.js';

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
  // One round trip: a plain INSERT (Prisma's create-with-include is BEGIN, INSERT, two SELECTs,
  // COMMIT); a new cart has no items, so the answer is the row as written.
  const now = new Date();
  const row: Cart = {
    id: randomUUID(),
    organizationId: ctx.organization.id,
    currency: input.currency,
    customerId,
    tokenHash: token?.hash ?? null,
    status: 'open',
    shippingMethodId: null,
    shippingAddress: null,
    createdAt: now,
    updatedAt: now,
  };
  await rawExecute(
    ctx.db,
    Prisma.sql`
    insert into carts (id, organization_id, currency, customer_id, token_hash, status, created_at, updated_at)
    values (${row.id}::uuid, ${row.organizationId}::uuid, ${row.currency}, ${row.customerId}, ${row.tokenHash}, 'open', ${now}, ${now})`,
  );
  return cartView({ ...row, items: [] }, token?.token ?? null);
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
  giftCardRecipient?: GiftCardRecipient | null;
}

export async function addCartItem(ctx: CartCtx, cartId: string, input: AddItemInput): Promise<CartView> {
  requireCartPermission(ctx, 'update');
  // Four round trips besides BEGIN/COMMIT: the cart lock with the item's catalog row, the cart's
  // items (after the lock), the price, and one write of the item, the cart's updated_at and the
  // event. The answer is built from the rows read and written, not re-read.
  return directTransaction(ctx.db, async (tx) => {
    const variantId = input.variantId ?? null;
    // The cart customer's own groups price the item (issue 25): the same price checkout will charge.
    const { cart, sellable, customerGroupIds } = await lockCartWithSellable(tx, ctx, cartId, { entityId: input.entityId, variantId });
    assertOpen(cart);
    const reason = unsellableReason(sellable);
    if (reason) throw validationFailed([unsellableIssue(sellable, reason)], `This item cannot be added: ${reason}`);
    if (input.giftCardRecipient && !isGiftCardType(sellable?.entityType))
      throw validationFailed([{ field: 'giftCardRecipient', message: 'only a gift-card product (entity type giftCard) takes a recipient' }]);

    const items = await cartItems(tx, cart.id);
    const existing = items.find((i) => i.entityId === input.entityId && i.variantId === variantId);
    const quantity = (existing?.quantity ?? 0) + input.quantity;
    if (quantity > MAX_ITEM_QUANTITY) throw validationFailed([{ field: 'quantity', message: `at most ${MAX_ITEM_QUANTITY} units of one item per cart` }]);
    const [resolved] = await portsOf(ctx.services).prices.resolve(serviceCtx(ctx, tx), [
      { entityId: input.entityId, variantId, currency: cart.currency, customerGroupIds, quantity },
    ]);
    const unitPrice = resolved ?? input.unitPriceSnapshot ?? null;
    if (unitPrice === null) throw validationFailed([{ field: 'unitPriceSnapshot', message: `this item has no price in ${cart.currency}: send unitPriceSnapshot` }]);

    const now = new Date();
    const item: CartItem = existing
      ? {
          ...existing,
          quantity,
          unitPriceSnapshot: BigInt(unitPrice),
          giftCardRecipient: (input.giftCardRecipient ?? existing.giftCardRecipient) as CartItem['giftCardRecipient'],
          updatedAt: now,
        }
      : {
          id: randomUUID(),
          organizationId: ctx.organization.id,
          cartId: cart.id,
          entityId: input.entityId,
          variantId,
          quantity,
          unitPriceSnapshot: BigInt(unitPrice),
          giftCardRecipient: (input.giftCardRecipient ?? null) as CartItem['giftCardRecipient'],
          createdAt: now,
          updatedAt: now,
        };
    const view = cartItemView(item);
    const event = eventInsertSql(originOf(ctx), 'cart.afterAddItem', {
      cart: { id: cart.id, currency: cart.currency, customerId: cart.customerId },
      item: { ...view, createdAt: view.createdAt.toISOString(), updatedAt: view.updatedAt.toISOString() },
      addedQuantity: input.quantity,
    });
    await rawExecute(
      tx,
      Prisma.sql`
      with item as (
        insert into cart_items (id, organization_id, cart_id, entity_id, variant_id, quantity, unit_price_snapshot, gift_card_recipient, created_at, updated_at)
        values (${item.id}::uuid, ${item.organizationId}::uuid, ${item.cartId}::uuid, ${item.entityId}::uuid, ${item.variantId}::uuid, ${item.quantity}, ${item.unitPriceSnapshot},
          ${item.giftCardRecipient === null ? null : JSON.stringify(item.giftCardRecipient)}::jsonb, ${item.createdAt}, ${item.updatedAt})
        on conflict (id) do update set quantity = excluded.quantity, unit_price_snapshot = excluded.unit_price_snapshot, gift_card_recipient = excluded.gift_card_recipient,
          updated_at = excluded.updated_at
      ),
      touched as (update carts set updated_at = ${now} where id = ${cart.id}::uuid),
      ev as (${event})
      select 1`,
    );
    const rows = existing ? items.map((i) => (i.id === item.id ? item : i)) : [...items, item];
    // The order CART_INCLUDE reads items in: created, then id.
    rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return cartView({ ...cart.row, updatedAt: now, items: rows });
  });
}

/** lockCart, reading the full cart row and the catalog row of the item about to be added in the same statement. */
async function lockCartWithSellable(
  tx: Tx,
  ctx: CartCtx,
  id: string,
  request: SellableRequest,
): Promise<{ cart: LockedCart & { row: Cart }; sellable: Sellable | null; customerGroupIds: string[] }> {
  const rows = await rawQuery<
    SellableRow & {
      cart_id: string;
      cart_currency: string;
      customer_id: string | null;
      token_hash: string | null;
      cart_status: string;
      created_at: Date;
      updated_at: Date;
      customer_group_ids: string[] | null;
    }
  >(
    tx,
    Prisma.sql`
    select c.id as cart_id, c.currency as cart_currency, c.customer_id, c.token_hash, c.status::text as cart_status, c.created_at, c.updated_at, ${SELLABLE_COLUMNS},
      (select p.customer_group_ids from customers p where p.id = c.customer_id and p.organization_id = ${ctx.organization.id}::uuid) as customer_group_ids
    from carts c
    left join catalog_entities e on e.id = ${request.entityId}::uuid and e.organization_id = ${ctx.organization.id}::uuid
    left join catalog_variants v on v.id = ${request.variantId}::uuid and v.entity_id = e.id
    where c.id = ${id}::uuid and c.organization_id = ${ctx.organization.id}::uuid
    for update of c`,
  );
  const r = rows[0];
  if (!r) throw notFound('Cart');
  const cart = { id: r.cart_id, currency: r.cart_currency, customerId: r.customer_id, tokenHash: r.token_hash, status: r.cart_status };
  assertCartReachable(ctx, cart);
  // The shipping choice is not read here (cart views do not show it; shipping/cart.ts does).
  const row: Cart = {
    ...cart,
    organizationId: ctx.organization.id,
    status: r.cart_status as Cart['status'],
    shippingMethodId: null,
    shippingAddress: null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  return { cart: { ...cart, row }, sellable: r.entity_id ? sellableFrom(r, request.variantId) : null, customerGroupIds: r.customer_group_ids ?? [] };
}

/** The cart's items as tx.cartItem.findMany({ where: { cartId }, orderBy: CART_INCLUDE.items.orderBy }) reads them, one statement. */
async function cartItems(tx: Tx, cartId: string): Promise<CartItem[]> {
  return rawQuery<CartItem>(
    tx,
    Prisma.sql`select id, organization_id as "organizationId", cart_id as "cartId", entity_id as "entityId", variant_id as "variantId", quantity,
      unit_price_snapshot as "unitPriceSnapshot", gift_card_recipient as "giftCardRecipient", created_at as "createdAt", updated_at as "updatedAt"
    from cart_items where cart_id = ${cartId}::uuid order by created_at, id`,
  );
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
