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
// A batch of lines costs one SQL statement whatever its size.
import type { ServiceContext } from '../../db/transaction.js';
import { rawQuery } from '../../db/direct.js';
import { Prisma, type Price, type PriceModifier } from '../../generated/prisma/client.js';
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

function inWindow(modifier: ModifierInput, at: Date): boolean {
  return (!modifier.validFrom || modifier.validFrom <= at) && (!modifier.validUntil || modifier.validUntil > at);
}

function unitAfter(base: bigint, modifier: ModifierInput): bigint {
  return modifier.type === 'percentage' ? discounted(base, percentOf(base, modifier.value)) : discounted(base, modifier.value);
}

export async function resolvePrices(ctx: ServiceContext, context: PriceContextInput, queries: readonly PriceQuery[]): Promise<Array<ResolvedPrice | null>> {
  if (!queries.length) return [];
  const at = context.at ?? new Date();
  const groups = [...new Set(context.customerGroupIds ?? [])];
  const entityIds = [...new Set(queries.map((q) => q.entityId))];
  // One statement (one round trip) for the prices, the modifiers in force and, when a modifier
  // is category-scoped, the entities' category links; rows come back as JSON (bigint as text).
  const [row] = await rawQuery<PriceInputsRow>(
    ctx.db,
    Prisma.sql`select ${priceInputsSql(ctx.organization.id, { currency: Prisma.sql`${context.currency}::text`, groups: Prisma.sql`${groups}::text[]`, entityIds: Prisma.sql`${entityIds}::uuid[]` }, at)}`,
  );
  // biome-ignore lint/style/noNonNullAssertion: a select without from answers one row
  return pricesFrom(row!, context.currency, queries, at);
}

/** The columns priceInputsSql selects (prices, modifiers in force, category links), as JSON. */
export interface PriceInputsRow {
  prices: PriceJson[];
  modifiers: ModifierJson[];
  memberships: Array<{ entityId: string; categoryId: string }>;
}

/**
 * The select-list of what resolving prices reads (columns prices, modifiers and memberships):
 * currency, groups (text[]) and entityIds (uuid[]) are SQL expressions, so a caller can take them
 * from a row it reads in the same statement (the cart of carts/service.ts addCartItem). Its subqueries
 * name their tables p, m and ec: an outer row the expressions read must use other names.
 */
export function priceInputsSql(org: string, on: { currency: Prisma.Sql; groups: Prisma.Sql; entityIds: Prisma.Sql }, at: Date): Prisma.Sql {
  const modifierFilter = Prisma.sql`m.organization_id = ${org}::uuid and m.is_active
      and ((m.currency is null and m.type = 'percentage') or m.currency = ${on.currency})
      and (m.entity_id is null or m.entity_id = any(${on.entityIds}))
      and (m.customer_group_id is null or m.customer_group_id = any(${on.groups}))
      and (m.valid_from is null or m.valid_from <= ${at}) and (m.valid_until is null or m.valid_until > ${at})`;
  return Prisma.sql`
      (select coalesce(json_agg(json_build_object('id', p.id, 'entityId', p.entity_id, 'variantId', p.variant_id,
          'amount', p.amount::text, 'customerGroupId', p.customer_group_id)), '[]'::json)
        from prices p
        where p.organization_id = ${org}::uuid and p.currency = ${on.currency} and p.entity_id = any(${on.entityIds})
          and (p.customer_group_id is null or p.customer_group_id = any(${on.groups}))) as prices,
      (select coalesce(json_agg(json_build_object('id', m.id, 'type', m.type, 'value', m.value::text,
          'entityId', m.entity_id, 'categoryId', m.category_id, 'minQuantity', m.min_quantity,
          'validFrom', m.valid_from, 'validUntil', m.valid_until)), '[]'::json)
        from price_modifiers m where ${modifierFilter}) as modifiers,
      (select coalesce(json_agg(json_build_object('entityId', ec.entity_id, 'categoryId', ec.category_id)), '[]'::json)
        from catalog_entity_categories ec
        where ec.organization_id = ${org}::uuid and ec.entity_id = any(${on.entityIds})
          and exists (select 1 from price_modifiers m where ${modifierFilter} and m.category_id is not null)) as memberships`;
}

/** The best price of each query from what priceInputsSql read (see the header for the rules). */
export function pricesFrom(row: PriceInputsRow, currency: string, queries: readonly PriceQuery[], at: Date): Array<ResolvedPrice | null> {
  // Each entity's prices in the order they came: a storefront page asks for every variant of 20
  // entities, and filtering the whole list per variant was quadratic in the page.
  const pricesOf = new Map<string, PriceInput[]>();
  for (const json of row.prices) {
    const price = priceFromJson(json);
    const list = pricesOf.get(price.entityId);
    if (list) list.push(price);
    else pricesOf.set(price.entityId, [price]);
  }
  const modifiers = row.modifiers.map(modifierFromJson);
  const categoriesOf = new Map<string, Set<string>>();
  for (const m of row.memberships) {
    const set = categoriesOf.get(m.entityId) ?? new Set<string>();
    set.add(m.categoryId);
    categoriesOf.set(m.entityId, set);
  }

  return queries.map((query) => {
    const quantity = query.quantity ?? 1;
    const variantId = query.variantId ?? null;
    const ofEntity = pricesOf.get(query.entityId) ?? [];
    const own = variantId ? ofEntity.filter((p) => p.variantId === variantId) : [];
    const candidates = own.length ? own : ofEntity.filter((p) => p.variantId === null);
    if (!candidates.length) return null;
    // biome-ignore lint/style/noNonNullAssertion: candidates is not empty (checked above)
    const base = candidates.reduce<PriceInput>((best, p) => (p.amount < best.amount || (p.amount === best.amount && p.customerGroupId === null) ? p : best), candidates[0]!);

    let unit = base.amount;
    let applied: ModifierInput | null = null;
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
      currency,
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

/**
 * What resolving reads of a price and of a modifier, and nothing else: the statement builds these
 * objects as JSON for every price of a page's entities (a storefront card: ~140), so columns
 * nobody reads (timestamps, names, organization) are neither built, sent, parsed nor turned
 * into Dates. The currency, the groups and whether a modifier is active are the statement's filter.
 */
type PriceInput = Pick<Price, 'id' | 'entityId' | 'variantId' | 'amount' | 'customerGroupId'>;
type ModifierInput = Pick<PriceModifier, 'id' | 'type' | 'value' | 'entityId' | 'categoryId' | 'minQuantity' | 'validFrom' | 'validUntil'>;
type PriceJson = Omit<PriceInput, 'amount'> & { amount: string };
type ModifierJson = Omit<ModifierInput, 'value' | 'validFrom' | 'validUntil'> & { value: string; validFrom: string | null; validUntil: string | null };

const dateOrNull = (v: string | null) => (v === null ? null : new Date(v));

function priceFromJson(p: PriceJson): PriceInput {
  return { id: p.id, entityId: p.entityId, variantId: p.variantId, amount: BigInt(p.amount), customerGroupId: p.customerGroupId };
}

function modifierFromJson(m: ModifierJson): ModifierInput {
  return {
    id: m.id,
    type: m.type,
    value: BigInt(m.value),
    entityId: m.entityId,
    categoryId: m.categoryId,
    minQuantity: m.minQuantity,
    validFrom: dateOrNull(m.validFrom),
    validUntil: dateOrNull(m.validUntil),
  };
}
