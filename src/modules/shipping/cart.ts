// A cart's shipping: its options for an address (GET /carts/:id/shipping-options, Cart.shippingOptions)
// and the shopper's choice (PUT /carts/:id/shipping: a method and the address), kept on the cart
// for checkout. Same access rules as the other cart routes (carts/access.ts). Options are priced
// from the cart's price snapshots; checkout re-prices the lines and the shipping with them.
import { Prisma } from '../../generated/prisma/client.js';
import { conflict, notFound, validationFailed } from '../../errors.js';
import { assertCartReachable, requireCartPermission } from '../carts/access.js';
import type { CartCtx } from '../carts/service.js';
import type { ShippingAddress } from '../checkout/service.js';
import { carrierContext } from './carrier/price.js';
import { quoteShipping, type QuoteLine, type ShippingOption } from './quote.js';

interface CartRow {
  id: string;
  currency: string;
  customer_id: string | null;
  token_hash: string | null;
  status: string;
  shipping_method_id: string | null;
  shipping_address: ShippingAddress | null;
  groups: string[] | null;
  items: QuoteLine[];
}

/** The cart with what quoting needs (items with entity types, the customer's groups), one statement. */
async function readCart(ctx: CartCtx, cartId: string, lock = false): Promise<CartRow> {
  const org = ctx.organization.id;
  const rows = await ctx.db.$queryRaw<CartRow[]>`
    select c.id, c.currency, c.customer_id, c.token_hash, c.status::text as status, c.shipping_method_id, c.shipping_address,
      (select cu.customer_group_ids from customers cu where cu.id = c.customer_id and cu.organization_id = ${org}::uuid) as groups,
      coalesce((select json_agg(json_build_object('variantId', i.variant_id, 'quantity', i.quantity, 'unitPrice', i.unit_price_snapshot, 'entityType', e.type) order by i.created_at)
        from cart_items i join catalog_entities e on e.id = i.entity_id and e.organization_id = ${org}::uuid where i.cart_id = c.id), '[]') as items
    from carts c where c.id = ${cartId}::uuid and c.organization_id = ${org}::uuid
    ${lock ? Prisma.sql`for update of c` : Prisma.empty}`;
  const row = rows[0];
  if (!row) throw notFound('Cart');
  assertCartReachable(ctx, { customerId: row.customer_id, tokenHash: row.token_hash });
  return row;
}

export interface DestinationInput {
  country?: string | null;
  state?: string | null;
  postalCode?: string | null;
}

async function optionsOf(ctx: CartCtx, cart: CartRow, to: DestinationInput | ShippingAddress | null): Promise<ShippingOption[]> {
  if (!to?.country)
    throw validationFailed([{ field: 'country', message: 'the cart has no shipping address yet: send country (and state, postalCode), or PUT /carts/:id/shipping first' }]);
  const quote = await quoteShipping(ctx, {
    currency: cart.currency,
    destination: { country: to.country, state: to.state ?? null, postalCode: to.postalCode ?? null },
    groups: cart.groups ?? [],
    lines: cart.items.map((i) => ({ ...i, unitPrice: Number(i.unitPrice) })),
    carrier: carrierContext(ctx, cart.id),
  });
  return quote.options;
}

/** Options for the address given, else the cart's own. */
export async function cartShippingOptions(ctx: CartCtx, cartId: string, to: DestinationInput = {}): Promise<ShippingOption[]> {
  requireCartPermission(ctx, 'read');
  const cart = await readCart(ctx, cartId);
  return optionsOf(ctx, cart, to.country ? to : cart.shipping_address);
}

export interface CartShippingView {
  cartId: string;
  address: ShippingAddress | null;
  /** The chosen method as priced now; null when none is chosen. */
  method: ShippingOption | null;
}

/** The shopper's choice: the address (required) and a method eligible for it (optional). */
export async function setCartShipping(ctx: CartCtx, cartId: string, input: { address: ShippingAddress; methodId?: string | null }): Promise<CartShippingView> {
  requireCartPermission(ctx, 'update');
  const cart = await readCart(ctx, cartId, true);
  if (cart.status !== 'open') throw conflict('the cart has been checked out', { cartId: cart.id });
  let method: ShippingOption | null = null;
  if (input.methodId) {
    method = (await optionsOf(ctx, cart, input.address)).find((o) => o.methodId === input.methodId) ?? null;
    if (!method) throw validationFailed([{ field: 'methodId', message: 'not a shipping option of this cart for this address (see GET /carts/:id/shipping-options)' }]);
  }
  await ctx.db.cart.update({
    where: { id: cart.id },
    data: { shippingAddress: input.address as unknown as Prisma.InputJsonObject, shippingMethodId: method?.methodId ?? null },
  });
  return { cartId: cart.id, address: input.address, method };
}
