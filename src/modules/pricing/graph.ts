// Pricing in the graph: a variant's raw prices and the resolved price (the one the cart and
// checkout would charge) on entities and variants. Both resolve when selected, batched: the raw
// prices share the entity-level `pricing` batch; resolved prices of a whole response level go
// to the resolver in one call per (currency, groups, quantity), which costs a fixed few statements.
import { validationFailed } from '../../errors.js';
import { builder } from '../../graphql/builder.js';
import { batchLoader, graphOnly } from '../../graphql/loaders.js';
import type { RequestContext } from '../../context.js';
import { CatalogEntityRef, CatalogVariantRef, loadIncluded } from '../catalog/index.js';
import type { PriceView } from './prices.service.js';
import { resolvePrices, type ResolvedPrice } from './resolver.js';
import { assertMayResolveGroups } from './groups.js';
import { ResolvedPriceRef, PriceRef } from './schema.js';
import { currencySchema, customerGroupIdSchema } from './shared.js';

interface PriceArgs {
  currency: string;
  customerGroupIds?: readonly string[] | null;
  quantity?: number | null;
}

interface CheckedArgs {
  currency: string;
  groups: readonly string[];
  quantity: number;
  /** The request's batch of resolved prices these arguments go to. */
  batchKey: string;
}

/**
 * Arguments already found valid, by their exact values (JSON: no two inputs share a key): a
 * storefront card asks for `price(currency:)` on every variant of a page with the same
 * arguments, and each ask validated them again (zod, a Set, a sort). Only valid ones are kept,
 * at most MAX_VALID_ARGS (then it starts over), so junk input cannot grow it.
 */
const validArgs = new Map<string, CheckedArgs>();
const MAX_VALID_ARGS = 1_000;

function checkedArgs(args: PriceArgs): CheckedArgs {
  const memo = JSON.stringify([args.currency, args.quantity ?? null, args.customerGroupIds ?? null]);
  const known = validArgs.get(memo);
  if (known) return known;
  const details: Array<{ field: string; message: string }> = [];
  const currency = currencySchema.safeParse(args.currency);
  // biome-ignore lint/style/noNonNullAssertion: a failed parse has at least one issue
  if (!currency.success) details.push({ field: 'currency', message: currency.error.issues[0]!.message });
  const groups = [...new Set(args.customerGroupIds ?? [])].sort();
  groups.forEach((group, index) => {
    if (!customerGroupIdSchema.safeParse(group).success) details.push({ field: `customerGroupIds.${index}`, message: 'not a valid customer group id' });
  });
  const quantity = args.quantity ?? 1;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 1_000_000) details.push({ field: 'quantity', message: 'must be a whole number from 1 to 1000000' });
  if (details.length) throw validationFailed(details, 'Input validation failed');
  const checked: CheckedArgs = Object.freeze({
    currency: args.currency,
    groups: Object.freeze(groups),
    quantity,
    batchKey: `pricing.resolved.${args.currency}.${quantity}.${groups.join(',')}`,
  });
  if (validArgs.size >= MAX_VALID_ARGS) validArgs.clear();
  validArgs.set(memo, checked);
  return checked;
}

/**
 * The resolved price of an entity or variant, batched per (currency, groups, quantity) and request.
 * Not an async function: a storefront card asks it for every variant of a page, and without
 * customer groups there is nothing to wait for before the batch (one promise per variant fewer).
 */
function loadResolved(ctx: RequestContext, entityId: string, variantId: string | null, args: PriceArgs): Promise<ResolvedPrice | null> {
  let checked: CheckedArgs;
  try {
    checked = checkedArgs(args);
  } catch (error) {
    return Promise.reject(error);
  }
  const { currency, groups, quantity, batchKey } = checked;
  const load = () =>
    batchLoader<ResolvedPrice | null>(
      ctx,
      batchKey,
      async (keys) => {
        const queries = keys.map((key) => {
          const [entity, variant] = key.split('/');
          // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
          return { entityId: entity!, variantId: variant || null, quantity };
        });
        const resolved = await resolvePrices(ctx, { currency, customerGroupIds: groups }, queries);
        return new Map(keys.map((key, i) => [key, resolved[i] ?? null]));
      },
      () => null,
    ).load(`${entityId}/${variantId ?? ''}`);
  return groups.length ? assertMayResolveGroups(ctx, groups).then(load) : load();
}

// Pothos' argument builders are generic; only their call shape matters here.
type ArgBuilder = (options: any) => any;
const priceArgs = (t: { arg: { string: ArgBuilder; stringList: ArgBuilder; int: ArgBuilder } }) => ({
  currency: t.arg.string({ required: true, description: 'ISO 4217 currency code, e.g. USD' }),
  customerGroupIds: t.arg.stringList({
    required: false,
    description: "The customer's groups: their group prices and modifiers apply. Without a pricing permission only your own groups (FORBIDDEN otherwise)",
  }),
  quantity: t.arg.int({ required: false, defaultValue: 1, description: 'Units bought (quantity breaks of modifiers), default 1' }),
});

const RESOLVED_DOC = 'The price the cart and checkout would charge now (same rules as GET /pricing/resolve): null when there is no price in the currency.';

builder.objectField(CatalogEntityRef, 'price', (t) =>
  t.field({
    type: ResolvedPriceRef,
    nullable: true,
    description: `${RESOLVED_DOC} The entity-level price; variants have their own.`,
    args: priceArgs(t as never) as never,
    resolve: (entity, args, ctx) => loadResolved(ctx, entity.id, null, args as unknown as PriceArgs),
  }),
);

builder.objectFields(CatalogVariantRef, (t) => ({
  price: t.field({
    type: ResolvedPriceRef,
    nullable: true,
    description: `${RESOLVED_DOC} The variant's own prices win over the entity's.`,
    args: priceArgs(t as never) as never,
    resolve: (variant, args, ctx) => loadResolved(ctx, variant.entityId, variant.id, args as unknown as PriceArgs),
  }),
  prices: t.field({
    type: [PriceRef],
    description: "This variant's own prices (customer-group prices only for callers with a pricing read permission)",
    resolve: async (variant, _args, ctx) => (await loadIncluded<PriceView[]>(ctx, 'pricing', variant.entityId)).filter((p) => p.variantId === variant.id),
  }),
}));
graphOnly('CatalogEntity', 'price');
graphOnly('CatalogVariant', 'price', 'prices');

export { loadResolved as loadResolvedPrice };
