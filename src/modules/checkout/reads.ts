// Checkout's first statement: lock the cart (it orders checkout against the cart's own writes)
// and, in the same round trip, read what the rest of checkout needs that does not depend on the
// cart's items: the organization's order settings (shipping rule, timezone for the number's
// year, tax mode and exemptions) and the email of the cart's customer, and the customer groups on
// the profile of the order's customer. It also reads how many attempts of this checkout's payment
// ended (payments/attempts.ts), which the payment id needs.
// With `lines`, it reads the items with their catalog rows and what pricing needs for them too.
// Those come from the statement's snapshot, taken before the lock was granted: when the lock had
// to wait for a transaction that changed the cart, they may be out of date. Every change of a
// cart's items updates the cart row, so the statement compares the cart row's version (xmin) it
// locked with the one its snapshot sees: equal, the items read are the items under the lock;
// different, `lines` comes back null and the caller reads them again (one more round trip, only
// after a race).
import type { Tx } from '../../db/client.js';
import { rawQuery } from '../../db/direct.js';
import { Prisma } from '../../generated/prisma/client.js';
import { notFound } from '../../errors.js';
import { assertCartReachable } from '../carts/access.js';
import type { CartCtx } from '../carts/service.js';
import { ORDER_SETTING_GROUPS, settingsFrom, type OrgSettings } from '../orders/shared.js';
import type { PricePort } from './ports.js';
import type { PriceInputsRow } from '../pricing/resolver.js';
import { cartLinesFrom, cartLinesSql, type CartLine, type CartLineRow, type Sellable } from './sellables.js';

export interface CheckoutCart {
  id: string;
  currency: string;
  customerId: string | null;
  status: string;
  /** The email of the cart's customer (null for a guest cart). */
  customerEmail: string | null;
  /** The customer groups on the profile of the order's customer (the signed-in one, else the cart's). */
  customerGroupIds: string[];
  /** Shipping (issue 25): the method chosen on the cart, and whether the store has any active method. */
  shippingMethodId: string | null;
  hasShippingMethods: boolean;
  /** The attempt number of the checkout's payment (payments/attempts.ts currentAttempt, read here to save a round trip). */
  paymentAttempt: number;
}

interface Row {
  id: string;
  currency: string;
  customer_id: string | null;
  token_hash: string | null;
  status: string;
  customer_email: string | null;
  customer_group_ids: string[] | null;
  shipping_method_id: string | null;
  has_shipping_methods: boolean;
  settings: Array<{ group: string; values: unknown }> | null;
  payment_attempt: number;
  locked_version?: string;
  read_version?: string;
  lines?: CartLineRow[];
  prices?: PriceInputsRow['prices'];
  modifiers?: PriceInputsRow['modifiers'];
  memberships?: PriceInputsRow['memberships'];
}

/** What `lines` asks lockCheckoutCart to read besides the cart: the customer groups pricing uses (null: the profile's) and the pricing port. */
export interface LinesRequest {
  groups: string[] | null;
  at: Date;
  prices: PricePort;
}

/** Locks the cart of the organization for the rest of the transaction; 404 when absent or unreachable. */
export async function lockCheckoutCart(
  tx: Tx,
  ctx: CartCtx,
  cartId: string,
  customerId: string | null = null,
  paymentAttemptRoot: string | null = null,
  lines: LinesRequest | null = null,
): Promise<{ cart: CheckoutCart; settings: OrgSettings; lines: Array<{ item: CartLine; sellable: Sellable | null }> | null; priceInputs: PriceInputsRow | null }> {
  const org = ctx.organization.id;
  const groupsOf = Prisma.sql`(select p.customer_group_ids from customers p where p.id = coalesce(${customerId}::text, c.customer_id) and p.organization_id = ${org}::uuid)`;
  const withLines = lines
    ? Prisma.sql`,
      c.xmin::text as locked_version, (select x.xmin::text from carts x where x.id = c.id) as read_version,
      (select coalesce(json_agg(row_to_json(l)), '[]'::json) from (${cartLinesSql(org, Prisma.sql`c.id`)}) l) as lines,
      ${lines.prices.inputsSql(
        org,
        {
          currency: Prisma.sql`c.currency`,
          groups: Prisma.sql`coalesce(${lines.groups}::text[], ${groupsOf}, '{}'::text[])`,
          entityIds: Prisma.sql`array(select ci.entity_id from cart_items ci where ci.cart_id = c.id)`,
        },
        lines.at,
      )}`
    : Prisma.empty;
  const rows = await rawQuery<Row>(
    tx,
    Prisma.sql`
    select c.id, c.currency, c.customer_id, c.token_hash, c.status::text as status, c.shipping_method_id,
      exists (select 1 from shipping_methods m where m.organization_id = ${org}::uuid and m.is_active) as has_shipping_methods,
      (select u.email from users u where u.id = c.customer_id and u.organization_id = ${org}::uuid) as customer_email,
      ${groupsOf} as customer_group_ids,
      (select json_agg(json_build_object('group', s."group", 'values', s."values")) from settings s
        where s.organization_id = ${org}::uuid and s."group" = any(${[...ORDER_SETTING_GROUPS]}::text[])) as settings,
      (select coalesce(max(e.attempt) + 1, 0)::int from payment_attempt_ends e where e.root = ${paymentAttemptRoot}::uuid) as payment_attempt${withLines}
    from carts c
    where c.id = ${cartId}::uuid and c.organization_id = ${org}::uuid
    for update of c`,
  );
  const row = rows[0];
  if (!row) throw notFound('Cart');
  assertCartReachable(ctx, { customerId: row.customer_id, tokenHash: row.token_hash });
  return {
    cart: {
      id: row.id,
      currency: row.currency,
      customerId: row.customer_id,
      status: row.status,
      customerEmail: row.customer_id ? row.customer_email : null,
      customerGroupIds: row.customer_group_ids ?? [],
      shippingMethodId: row.shipping_method_id,
      hasShippingMethods: row.has_shipping_methods,
      paymentAttempt: row.payment_attempt ?? 0,
    },
    settings: settingsFrom(row.settings ?? []),
    ...(lines && row.lines && row.locked_version === row.read_version
      ? { lines: cartLinesFrom(row.lines), priceInputs: { prices: row.prices ?? [], modifiers: row.modifiers ?? [], memberships: row.memberships ?? [] } }
      : { lines: null, priceInputs: null }),
  };
}
