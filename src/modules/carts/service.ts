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
import { pricesFrom, priceInputsSql, type PriceInputsRow } from '../pricing/resolver.js';
import { SELLABLE_COLUMNS, sellableFrom, unsellableIssue, unsellableReason, type SellableRequest, type SellableRow } from '../checkout/sellables.js';
import type { RequestContext } from '../../context.js';
import type { OrdersCtx } from '../orders/shared.js';
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
  // Two round trips and no transaction: one statement reads the cart, the item's catalog row, the
  // cart's items and the item's price inputs (one snapshot); one statement writes the item, the
  // cart's updated_at and the event, only if the cart row is still the version read (its xmin).
  // Every change of a cart's items or status updates the cart row, so an unchanged version means
  // nothing the answer depends on changed: the write is what the locked read-modify-write wrote.
  // A changed version (a concurrent write to the cart) reads again; after a few misses the cart is
  // locked first (the write then cannot miss). The answer is built from the rows read and written.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const view = await tryAddItem(ctx, ctx.db, cartId, input);
    if (view) return view;
  }
  return directTransaction(ctx.db, async (tx) => {
    await rawQuery(tx, Prisma.sql`select 1 from carts where id = ${cartId}::uuid and organization_id = ${ctx.organization.id}::uuid for update`);
    const view = await tryAddItem(ctx, tx, cartId, input);
    if (!view) throw new Error('cart changed while locked');
    return view;
  });
}

/** One read and one conditional write of addCartItem; null when the cart changed in between. */
async function tryAddItem(ctx: CartCtx, db: OrdersCtx['db'] | Tx, cartId: string, input: AddItemInput): Promise<CartView | null> {
  const variantId = input.variantId ?? null;
  const at = new Date();
  // The cart customer's own groups price the item (issue 25): the same price checkout will charge.
  const { cart, version, sellable, items, priceInputs } = await readCartForAdd(db, ctx, cartId, { entityId: input.entityId, variantId }, at);
  assertOpen(cart);
  const reason = unsellableReason(sellable);
  if (reason) throw validationFailed([unsellableIssue(sellable, reason)], `This item cannot be added: ${reason}`);
  if (input.giftCardRecipient && !isGiftCardType(sellable?.entityType))
    throw validationFailed([{ field: 'giftCardRecipient', message: 'only a gift-card product (entity type giftCard) takes a recipient' }]);

  const existing = items.find((i) => i.entityId === input.entityId && i.variantId === variantId);
  const quantity = (existing?.quantity ?? 0) + input.quantity;
  if (quantity > MAX_ITEM_QUANTITY) throw validationFailed([{ field: 'quantity', message: `at most ${MAX_ITEM_QUANTITY} units of one item per cart` }]);
  // The price resolver's rules (pricing/resolver.ts) on the inputs read above.
  const [resolved] = pricesFrom(priceInputs, cart.currency, [{ entityId: input.entityId, variantId, quantity }], at);
  const unitPrice = resolved ? Number(resolved.unitAmount) : (input.unitPriceSnapshot ?? null);
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
  const event = eventInsertSql(
    originOf(ctx),
    'cart.afterAddItem',
    {
      cart: { id: cart.id, currency: cart.currency, customerId: cart.customerId },
      item: { ...view, createdAt: view.createdAt.toISOString(), updatedAt: view.updatedAt.toISOString() },
      addedQuantity: input.quantity,
    },
    Prisma.sql`exists (select 1 from touched)`,
  );
  const [written] = await rawQuery<{ n: number }>(
    db,
    Prisma.sql`
    with touched as (update carts set updated_at = ${now}::timestamptz where id = ${cart.id}::uuid and status = 'open' and xmin = ${version}::xid returning id),
    item as (
      insert into cart_items (id, organization_id, cart_id, entity_id, variant_id, quantity, unit_price_snapshot, gift_card_recipient, created_at, updated_at)
      select ${item.id}::uuid, ${item.organizationId}::uuid, touched.id, ${item.entityId}::uuid, ${item.variantId}::uuid, ${item.quantity}::int, ${item.unitPriceSnapshot}::bigint,
        ${item.giftCardRecipient === null ? null : JSON.stringify(item.giftCardRecipient)}::jsonb, ${item.createdAt}::timestamptz, ${item.updatedAt}::timestamptz
      from touched
      on conflict (id) do update set quantity = excluded.quantity, unit_price_snapshot = excluded.unit_price_snapshot, gift_card_recipient = excluded.gift_card_recipient,
        updated_at = excluded.updated_at
    ),
    ev as (${event})
    select count(*)::int as n from touched`,
  );
  if (!written?.n) return null;
  const rows = existing ? items.map((i) => (i.id === item.id ? item : i)) : [...items, item];
  // The order CART_INCLUDE reads items in: created, then id.
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return cartView({ ...cart.row, updatedAt: now, items: rows });
}

interface ItemJson {
  id: string;
  entityId: string;
  variantId: string | null;
  quantity: number;
  unitPriceSnapshot: string;
  giftCardRecipient: Prisma.JsonValue | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The cart (404 when absent or unreachable) with its row version (xmin), the catalog row of the
 * item about to be added, the cart's items as tx.cartItem.findMany({ where: { cartId }, orderBy:
 * CART_INCLUDE.items.orderBy }) reads them, and the price inputs of the item in the cart's
 * currency for its customer's groups: one statement, one snapshot.
 */
async function readCartForAdd(db: OrdersCtx['db'] | Tx, ctx: CartCtx, id: string, request: SellableRequest, at: Date) {
  const org = ctx.organization.id;
  const utc = (column: string) => Prisma.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
  const rows = await rawQuery<
    SellableRow &
      PriceInputsRow & {
        cart_id: string;
        cart_currency: string;
        customer_id: string | null;
        token_hash: string | null;
        cart_status: string;
        cart_version: string;
        created_at: Date;
        updated_at: Date;
        customer_group_ids: string[] | null;
        items: ItemJson[];
      }
  >(
    db,
    Prisma.sql`
    select ct.id as cart_id, ct.currency as cart_currency, ct.customer_id, ct.token_hash, ct.status::text as cart_status, ct.xmin::text as cart_version, ct.created_at, ct.updated_at,
      ${SELLABLE_COLUMNS}, g.ids as customer_group_ids,
      (select coalesce(json_agg(json_build_object('id', i.id, 'entityId', i.entity_id, 'variantId', i.variant_id, 'quantity', i.quantity,
          'unitPriceSnapshot', i.unit_price_snapshot::text, 'giftCardRecipient', i.gift_card_recipient,
          'createdAt', ${utc('i.created_at')}, 'updatedAt', ${utc('i.updated_at')}) order by i.created_at, i.id), '[]'::json)
        from cart_items i where i.cart_id = ct.id) as items,
      ${priceInputsSql(org, { currency: Prisma.sql`ct.currency`, groups: Prisma.sql`coalesce(g.ids, '{}'::text[])`, entityIds: Prisma.sql`array[${request.entityId}::uuid]` }, at)}
    from carts ct
    left join lateral (select p.customer_group_ids as ids from customers p where p.id = ct.customer_id and p.organization_id = ${org}::uuid) g on true
    left join catalog_entities e on e.id = ${request.entityId}::uuid and e.organization_id = ${org}::uuid
    left join catalog_variants v on v.id = ${request.variantId}::uuid and v.entity_id = e.id
    where ct.id = ${id}::uuid and ct.organization_id = ${org}::uuid`,
  );
  const r = rows[0];
  if (!r) throw notFound('Cart');
  const cart = { id: r.cart_id, currency: r.cart_currency, customerId: r.customer_id, tokenHash: r.token_hash, status: r.cart_status };
  assertCartReachable(ctx, cart);
  // The shipping choice is not read here (cart views do not show it; shipping/cart.ts does).
  const row: Cart = {
    ...cart,
    organizationId: org,
    status: r.cart_status as Cart['status'],
    shippingMethodId: null,
    shippingAddress: null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  const items: CartItem[] = r.items.map((i) => ({
    id: i.id,
    organizationId: org,
    cartId: r.cart_id,
    entityId: i.entityId,
    variantId: i.variantId,
    quantity: i.quantity,
    unitPriceSnapshot: BigInt(i.unitPriceSnapshot),
    giftCardRecipient: i.giftCardRecipient,
    createdAt: new Date(i.createdAt),
    updatedAt: new Date(i.updatedAt),
  }));
  return {
    cart: { ...cart, row },
    version: r.cart_version,
    sellable: r.entity_id ? sellableFrom(r, request.variantId) : null,
    items,
    priceInputs: { prices: r.prices, modifiers: r.modifiers, memberships: r.memberships },
  };
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
