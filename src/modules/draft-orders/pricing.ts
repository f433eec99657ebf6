// A draft priced the way its completion prices it (checkout/pricing.ts: custom unit prices and the
// manual discount as given, other lines at today's prices, shipping and tax computed): the one
// computation behind completion (complete.ts) and the payment link's page (link.ts), so the link
// shows exactly the lines and totals its checkout charges.
import type { Tx } from '../../db/client.js';
import { validationFailed } from '../../errors.js';
import type { DraftOrder } from '../../generated/prisma/client.js';
import { priceOrder, type PricedOrder } from '../checkout/pricing.js';
import { loadSellables, unsellableReason } from '../checkout/sellables.js';
import { portsOf } from '../checkout/wiring.js';
import { at } from '../orders/at.js';
import { orgSettings, serviceCtx, type OrdersCtx } from '../orders/shared.js';
import type { DraftLine } from './views.js';

type Sellable = NonNullable<Awaited<ReturnType<typeof loadSellables>>[number]>;

export interface PricedDraft {
  lines: DraftLine[];
  address: { country: string };
  sellables: Sellable[];
  groups: string[];
  /** The customer's account address, else the draft's guest email. */
  email: string | null;
  unitPrices: number[];
  settings: Awaited<ReturnType<typeof orgSettings>>;
  priced: PricedOrder;
}

/** 422 naming the field when the draft cannot be priced yet (no lines, no address, an unsellable or unpriced item). */
export async function priceDraft(tx: Tx, ctx: OrdersCtx, draft: DraftOrder, orderId: string): Promise<PricedDraft> {
  const lines = draft.lines as unknown as DraftLine[];
  if (!lines.length) throw validationFailed([{ field: 'lines', message: 'the draft has no lines' }]);
  const address = draft.shippingAddress as { country: string } | null;
  if (!address) throw validationFailed([{ field: 'shippingAddress', message: 'the draft needs a shipping address before it can be completed' }]);
  const organizationId = ctx.organization.id;

  const found = await loadSellables(
    tx,
    organizationId,
    lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId })),
  );
  const issues = found.flatMap((s, i) => {
    const reason = unsellableReason(s);
    return reason ? [{ field: `lines.${i}.entityId`, message: reason }] : [];
  });
  if (issues.length) throw validationFailed(issues);
  // unsellableReason(null) is a reason, so every row is present here.
  const sellables = found.filter((s): s is NonNullable<typeof s> => s !== null);
  const customer = draft.customerId
    ? await tx.$queryRaw<Array<{ email: string; groups: string[] | null }>>`
        select u.email, (select p.customer_group_ids from customers p where p.id = u.id and p.organization_id = ${organizationId}::uuid) as groups
        from users u where u.id = ${draft.customerId} and u.organization_id = ${organizationId}::uuid`
    : [];
  const groups = customer[0]?.groups ?? [];
  const email = customer[0]?.email ?? draft.email;
  const ports = portsOf(ctx.services);
  const listed = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.unitPrice === null);
  const resolved = await ports.prices.resolve(
    serviceCtx(ctx, tx),
    listed.map(({ l }) => ({ entityId: l.entityId, variantId: l.variantId, currency: draft.currency, customerGroupIds: groups, quantity: l.quantity })),
  );
  const unitPrices = lines.map((l) => l.unitPrice ?? 0);
  listed.forEach(({ i }, k) => {
    const price = resolved[k];
    if (price === null || price === undefined) issues.push({ field: `lines.${i}.unitPrice`, message: `the item has no price in ${draft.currency}: give a custom unitPrice` });
    else unitPrices[i] = price;
  });
  if (issues.length) throw validationFailed(issues);

  const settings = await orgSettings(tx, organizationId);
  const hasMethods = (await tx.shippingMethod.count({ where: { organizationId, isActive: true } })) > 0;
  const priced = await priceOrder(tx, ctx, {
    currency: draft.currency,
    groups,
    address,
    customerId: draft.customerId,
    orderId,
    codes: [],
    manualDiscount: Number(draft.discountAmount),
    settings,
    lines: lines.map((l, i) => ({ entityId: l.entityId, variantId: l.variantId, quantity: l.quantity, unitPrice: at(unitPrices, i), sellable: at(sellables, i) })),
    shipping: { enabled: hasMethods, methodId: draft.shippingMethodId, cartMethodId: null, cartId: null },
  });
  return { lines, address, sellables, groups, email, unitPrices, settings, priced };
}
