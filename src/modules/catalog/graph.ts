// Catalog relations other modules point at (order lines, cart items, variants back to their
// entity): batch loaders by id, one statement per level whatever the number of parents, with the
// catalog's visibility rules (an entity that is not active resolves to null for callers without
// catalog:read:unpublished, exactly as GET /catalog/entities/:id answers 404).
import type { RequestContext } from '../../context.js';
import { batchLoader, graphOnly } from '../../graphql/loaders.js';
import { builder } from '../../graphql/builder.js';
import { loadVariants } from './queries.js';
import { seesUnpublished } from './shared.js';
import { CatalogEntityRef, CatalogVariantRef } from './types.js';
import { entityView, type CatalogEntityView, type VariantView } from './views.js';

type GraphCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'loaders'>;

/** A catalog entity by id as the caller may see it, or null. */
export function loadCatalogEntity(ctx: GraphCtx, id: string | null): Promise<CatalogEntityView | null> | null {
  if (!id) return null;
  return batchLoader<CatalogEntityView | null>(
    ctx,
    'catalog.entityById',
    async (ids) => {
      const rows = await ctx.db.catalogEntity.findMany({
        where: { organizationId: ctx.organization.id, id: { in: ids }, ...(seesUnpublished(ctx) ? {} : { status: 'active' }) },
      });
      return new Map(rows.map((row) => [row.id, entityView(row)]));
    },
    () => null,
  ).load(id);
}

/**
 * A variant by id, or null. Variants carry no status of their own: what a variant says (sku,
 * title, options) is what an order line or cart item already shows; its entity follows the
 * entity's visibility rule.
 */
export function loadCatalogVariant(ctx: GraphCtx, id: string | null): Promise<VariantView | null> | null {
  if (!id) return null;
  return batchLoader<VariantView | null>(
    ctx,
    'catalog.variantById',
    async (ids) => new Map((await loadVariants(ctx.db, ctx.organization.id, { ids })).map((v) => [v.id, v])),
    () => null,
  ).load(id);
}

builder.objectField(CatalogVariantRef, 'entity', (t) =>
  t.field({
    type: CatalogEntityRef,
    nullable: true,
    description: 'The entity this variant belongs to (null when it is not visible to the caller)',
    resolve: (variant, _args, ctx) => loadCatalogEntity(ctx, variant.entityId),
  }),
);
graphOnly('CatalogVariant', 'entity');
import './localized.js';
