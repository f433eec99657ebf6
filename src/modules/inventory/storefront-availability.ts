// What shoppers see of stock: `CatalogVariant.availability` (REST: each variant of
// `include=variants`, GET /catalog/variants...). The customer role and the shopper's session have
// no inventory:read (warehouse figures, costs and movements stay staff-only), yet a listing must
// say "in stock" or "only 3 left"; so catalog readers get a capped figure and nothing per
// warehouse. One SQL statement per response level (every variant of a page of entities lands in
// one DataLoader batch), whatever the page size.
import { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../../graphql/builder.js';
import { batchLoader } from '../../graphql/loaders.js';
import { embedField } from '../../graphql/cost.js';
import { queryRows } from '../../db/raw.js';
import { CatalogEntityRef, CatalogVariantRef, includedValue, registerCatalogInclude } from '../catalog/index.js';
import type { RequestContext } from '../../context.js';
import { DEFAULT_AVAILABILITY_CEILING } from '../../config/schema.js';

export interface ShopperAvailability {
  inStock: boolean;
  availableQuantity: number;
  backorderable: boolean;
}

type Ctx = Pick<RequestContext, 'db' | 'organization' | 'loaders' | 'config'>;

/** The configured cap; includers get a catalog context, which carries the request's config in practice. */
function ceilingOf(ctx: object): number {
  return (ctx as Partial<Pick<RequestContext, 'config'>>).config?.storefront.availabilityCeiling ?? DEFAULT_AVAILABILITY_CEILING;
}

/**
 * Units sellable now per variant: on hand − reserved of each of its stock levels, floored at 0
 * per level (one warehouse oversold by a backorder adjustment hides no other's stock), summed
 * over every warehouse (each is one checkout may reserve from). One statement for all `ids`.
 */
async function sellableByVariant(ctx: Ctx, ids: string[]): Promise<Map<string, number>> {
  const rows = await queryRows<{ variantId: string; available: number }>(
    ctx.db,
    Prisma.sql`
    select variant_id as "variantId", sum(greatest(on_hand - reserved, 0))::int as available
    from inventory_levels
    where organization_id = ${ctx.organization.id}::uuid and variant_id = any(${ids}::uuid[])
    group by variant_id`,
  );
  return new Map(rows.map((row) => [row.variantId, row.available]));
}

/**
 * The same for entities bought without a variant (cart lines without variantId): their
 * entity-level stock only (variant_key ''), which is what checkout reserves for such a line.
 */
async function sellableByEntity(ctx: Pick<Ctx, 'db' | 'organization'>, ids: string[]): Promise<Map<string, number>> {
  const rows = await queryRows<{ entityId: string; available: number }>(
    ctx.db,
    Prisma.sql`
    select entity_id as "entityId", sum(greatest(on_hand - reserved, 0))::int as available
    from inventory_levels
    where organization_id = ${ctx.organization.id}::uuid and entity_id = any(${ids}::uuid[]) and variant_key = ''
    group by entity_id`,
  );
  return new Map(rows.map((row) => [row.entityId, row.available]));
}

export function shopperAvailability(available: number, ceiling: number): ShopperAvailability {
  return {
    inStock: available > 0,
    availableQuantity: Math.min(Math.max(available, 0), ceiling),
    // Checkout reserves stock and refuses a line no warehouse covers (409): nothing is sold
    // beyond stock, so no variant is backorderable. The field is in the contract so that a
    // backorder policy can turn it on without a client change.
    backorderable: false,
  };
}

export function loadShopperAvailability(ctx: Ctx, variantId: string): Promise<ShopperAvailability> {
  const ceiling = ceilingOf(ctx);
  return batchLoader<ShopperAvailability>(
    ctx,
    'inventory.shopperAvailability',
    async (ids) => {
      const sellable = await sellableByVariant(ctx, ids);
      return new Map(ids.map((id) => [id, shopperAvailability(sellable.get(id) ?? 0, ceiling)]));
    },
    () => shopperAvailability(0, ceiling),
  ).load(variantId);
}

const VariantAvailabilityRef = builder.objectRef<ShopperAvailability>('VariantAvailability').implement({
  description: "What a shopper may know of a variant's stock (catalog:read; no inventory:read needed). Warehouse figures stay behind inventory:read (`stock`).",
  fields: (t) => ({
    inStock: t.exposeBoolean('inStock', { description: 'availableQuantity > 0' }),
    availableQuantity: t.exposeInt('availableQuantity', {
      description: 'On hand minus reservations over every warehouse, capped at storefront.availabilityCeiling (default 50): above it the figure shows the ceiling',
    }),
    backorderable: t.exposeBoolean('backorderable', { description: 'Whether checkout accepts more than availableQuantity (it does not: checkout sells from stock only)' }),
  }),
});

const AVAILABILITY_INCLUDE = 'availability';

// REST `include=availability`; GraphQL `CatalogEntity.availability` through the same batch.
registerCatalogInclude<ShopperAvailability>({
  name: AVAILABILITY_INCLUDE,
  description: 'Whether and how many of the entity itself (bought without a variant) the shopper can buy, capped (catalog:read; variants carry their own)',
  async load(ctx, ids) {
    const sellable = await sellableByEntity(ctx, ids);
    return new Map(ids.map((id) => [id, shopperAvailability(sellable.get(id) ?? 0, ceilingOf(ctx))]));
  },
  // The ceiling does not matter at 0.
  empty: () => shopperAvailability(0, 1),
});

builder.objectField(CatalogEntityRef, 'availability', (t) =>
  t.field({
    extensions: embedField(AVAILABILITY_INCLUDE),
    type: VariantAvailabilityRef,
    nullable: true,
    authScopes: { permission: 'catalog:read' },
    description:
      "Whether and how many of the entity itself (a cart line without variantId) the shopper can buy: its entity-level stock, capped like variants' (catalog:read). Resolved when selected; over REST `include=availability`, null unless asked for",
    resolve: (entity, _args, ctx) => includedValue<ShopperAvailability>(entity, AVAILABILITY_INCLUDE, ctx),
  }),
);

builder.objectField(CatalogVariantRef, 'availability', (t) =>
  t.field({
    type: VariantAvailabilityRef,
    nullable: true,
    authScopes: { permission: 'catalog:read' },
    description: 'Whether and how many the shopper can buy (catalog:read). One statement per page of variants',
    resolve: (variant, _args, ctx) => loadShopperAvailability(ctx, variant.id),
  }),
);
