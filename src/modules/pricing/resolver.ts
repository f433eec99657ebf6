// The price resolver the cart and the checkout call: the best unit price of an entity (or one of
// its variants) in a currency for a customer in some groups, buying some quantity.
//
//   1. Base price. The variant's own prices if it has any in the currency, else the entity's.
//      Among those, the prices open to this customer (no group, or one of their groups), the
//      lowest wins: a group price only ever helps its members.
//   2. Modifiers. Every active modifier in its window whose scope matches (entity, a category the
//      entity belongs to, one of the customer's groups; unscoped = all), whose currency matches
//      (or is unset, percentage only) and whose minQuantity ≤ quantity. The one giving the lowest
//      unit price applies; modifiers do not stack. Rounding: pricing/rounding.ts.
//   3. total = unit × quantity.
//
// No base price in the currency → null (the caller decides: 404 on the route, refusal at checkout).
// A batch of lines costs two or three SQL statements whatever its size.
import type { ServiceContext } from '../../db/transaction.js';
import type { Price, PriceModifier } from '../../generated/prisma/client.js';
import { discounted, percentOf } from './rounding.js';

export interface PriceQuery {
  entityId: string;
  variantId?: string | null;
  quantity?: number;
}

export interface PriceContextInput {
  currency: string;
  customerGroupIds?: readonly string[];
  /** Resolve as of this instant (default now). */
  at?: Date;
}

export interface ResolvedPrice {
  entityId: string;
  variantId: string | null;
  currency: string;
  quantity: number;
  /** The base price row used, and the group it is for (null = everyone). */
  priceId: string;
  customerGroupId: string | null;
  baseAmount: bigint;
  /** The modifier applied, if any. */
  modifierId: string | null;
  discountAmount: bigint;
  unitAmount: bigint;
  totalAmount: bigint;
}

function inWindow(modifier: PriceModifier, at: Date): boolean {
  return (!modifier.validFrom || modifier.validFrom <= at) && (!modifier.validUntil || modifier.validUntil > at);
}

function unitAfter(base: bigint, modifier: PriceModifier): bigint {
  return modifier.type === 'percentage' ? discounted(base, percentOf(base, modifier.value)) : discounted(base, modifier.value);
}

export async function resolvePrices(ctx: ServiceContext, context: PriceContextInput, queries: readonly PriceQuery[]): Promise<Array<ResolvedPrice | null>> {
  if (!queries.length) return [];
  const org = ctx.organization.id;
  const at = context.at ?? new Date();
  const groups = [...new Set(context.customerGroupIds ?? [])];
  const entityIds = [...new Set(queries.map((q) => q.entityId))];

  const [prices, modifiers] = await Promise.all([
    ctx.db.price.findMany({
      where: {
        organizationId: org,
        currency: context.currency,
        entityId: { in: entityIds },
        OR: [{ customerGroupId: null }, ...(groups.length ? [{ customerGroupId: { in: groups } }] : [])],
      },
    }),
    ctx.db.priceModifier.findMany({
      where: {
        organizationId: org,
        isActive: true,
        AND: [
          { OR: [{ currency: null, type: 'percentage' }, { currency: context.currency }] },
          { OR: [{ entityId: null }, { entityId: { in: entityIds } }] },
          { OR: [{ customerGroupId: null }, ...(groups.length ? [{ customerGroupId: { in: groups } }] : [])] },
          { OR: [{ validFrom: null }, { validFrom: { lte: at } }] },
          { OR: [{ validUntil: null }, { validUntil: { gt: at } }] },
        ],
      },
    }),
  ]);
  const categoryScoped = modifiers.some((m) => m.categoryId);
  const memberships = categoryScoped
    ? await ctx.db.catalogEntityCategory.findMany({ where: { organizationId: org, entityId: { in: entityIds } }, select: { entityId: true, categoryId: true } })
    : [];
  const categoriesOf = new Map<string, Set<string>>();
  for (const m of memberships) {
    const set = categoriesOf.get(m.entityId) ?? new Set<string>();
    set.add(m.categoryId);
    categoriesOf.set(m.entityId, set);
  }

  return queries.map((query) => {
    const quantity = query.quantity ?? 1;
    const variantId = query.variantId ?? null;
    const ofEntity = prices.filter((p) => p.entityId === query.entityId);
    const own = variantId ? ofEntity.filter((p) => p.variantId === variantId) : [];
    const candidates = own.length ? own : ofEntity.filter((p) => p.variantId === null);
    if (!candidates.length) return null;
    const base = candidates.reduce<Price>((best, p) => (p.amount < best.amount || (p.amount === best.amount && p.customerGroupId === null) ? p : best), candidates[0]!);

    let unit = base.amount;
    let applied: PriceModifier | null = null;
    for (const modifier of modifiers) {
      if (modifier.entityId && modifier.entityId !== query.entityId) continue;
      if (modifier.categoryId && !categoriesOf.get(query.entityId)?.has(modifier.categoryId)) continue;
      if (modifier.minQuantity > quantity || !inWindow(modifier, at)) continue;
      const price = unitAfter(base.amount, modifier);
      if (price < unit) {
        unit = price;
        applied = modifier;
      }
    }
    return {
      entityId: query.entityId,
      variantId,
      currency: context.currency,
      quantity,
      priceId: base.id,
      customerGroupId: base.customerGroupId,
      baseAmount: base.amount,
      modifierId: applied?.id ?? null,
      discountAmount: base.amount - unit,
      unitAmount: unit,
      totalAmount: unit * BigInt(quantity),
    };
  });
}

/** One line: the best price, or null when the entity has no price in the currency. */
export async function resolvePrice(ctx: ServiceContext, query: PriceQuery & PriceContextInput): Promise<ResolvedPrice | null> {
  const [resolved] = await resolvePrices(ctx, query, [query]);
  return resolved ?? null;
}
