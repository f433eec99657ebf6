// `include`: what a catalog read embeds in each entity. Each embeddable relation is an includer
// that loads its data for a whole page of entities at once (one statement, or a fixed few,
// whatever the page size), so a page of 100 entities with every include costs as many SQL
// statements as a page of 10.
//
// The catalog registers attributes, variants, optionTypes, categories, brands and customFields
// below. Modules that arrive later (inventory, pricing, media) register their own includer with
// `registerCatalogInclude` and expose the embed as a field of CatalogEntity:
//
//   registerCatalogInclude({ name: 'pricing', description: 'Prices of the entity and its variants',
//     load: async (ctx, ids) => groupBy(await ctx.db.price.findMany({ where: { organizationId: ctx.organization.id, entityId: { in: ids } } }), (p) => p.entityId) });
//   builder.objectField(CatalogEntityRef, 'pricing', (t) =>
//     t.field({ type: [PriceRef], nullable: true, resolve: (entity) => includedValue(entity, 'pricing') }));
import { Prisma, type CatalogAttributes, type CatalogEntity } from '../../generated/prisma/client.js';
import { queryRows } from '../../db/raw.js';
import { validationFailed } from '../../errors.js';
import { seesUnpublished, type CatalogCtx } from './shared.js';
import type { RequestContext } from '../../context.js';
import { batchLoader, groupBy, viaRestFacade } from '../../graphql/loaders.js';
import { loadEntityBrands, loadEntityCategories, loadOptionTypes, loadVariants } from './queries.js';
import { attributesView, customFieldView, entityView, type CatalogEntityView } from './views.js';
import { knowStoreLocale, storeLocaleColumn } from './store-locale.js';

export interface CatalogIncluder<T = unknown> {
  /** The name callers put in `include` (also the CatalogEntity field that shows it). */
  name: string;
  description: string;
  /**
   * Loads the embed of every given entity in one statement (or a fixed number of them) and
   * returns it keyed by entity id; entities missing from the map get `empty()`.
   */
  load(ctx: CatalogCtx, entityIds: string[]): Promise<Map<string, T>>;
  /** The value for an entity with nothing to embed; an empty list unless stated. */
  empty?: () => T;
}

const includers = new Map<string, CatalogIncluder>();

export function registerCatalogInclude<T>(includer: CatalogIncluder<T>): void {
  if (includers.has(includer.name)) throw new Error(`catalog include ${includer.name} is registered twice`);
  includers.set(includer.name, includer as CatalogIncluder);
}

/** Include names available now, sorted (documentation and error messages). */
export function availableIncludes(): string[] {
  return [...includers.keys()].sort();
}

/** Parses `include=variants,attributes`; an unknown or unavailable name is a 422 listing the valid ones. */
export function parseInclude(raw: string | undefined | null): string[] {
  if (!raw) return [];
  const names = [
    ...new Set(
      raw
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((name) => !includers.has(name));
  if (unknown.length) {
    throw validationFailed(
      [{ field: 'include', message: `unknown or unavailable include ${unknown.join(', ')}; valid: ${availableIncludes().join(', ')}` }],
      'Input validation failed',
    );
  }
  return names;
}

/**
 * The value of an embed field. Over REST: what `include` put on the entity, or null when it was
 * not asked for (REST bodies and statement counts stay as they were). Over GraphQL: the
 * selection is the include, so an embed that was not loaded up front is loaded now through the
 * request's batch loader: one statement (per includer) for every entity of the response level.
 */
export function includedValue<T>(entity: CatalogEntityView, name: string, ctx?: CatalogCtx & Pick<RequestContext, 'loaders' | 'rest'>): T | null | Promise<T> {
  if (name in entity.included) return entity.included[name] as T;
  if (!ctx || viaRestFacade(ctx)) return null;
  return loadIncluded<T>(ctx, name, entity.id);
}

/**
 * An includer's value for one entity through the request's batch loader (shared by every field
 * that needs it: a variant's prices come from the same batch as its entity's `pricing`).
 */
export function loadIncluded<T>(ctx: CatalogCtx & Pick<RequestContext, 'loaders'>, name: string, entityId: string): Promise<T> {
  const includer = includers.get(name);
  if (!includer) throw new Error(`catalog include ${name} is not registered`);
  return batchLoader<unknown>(
    ctx,
    `catalog.include.${name}`,
    (ids) => includer.load(ctx, ids),
    () => includer.empty?.() ?? [],
  ).load(entityId) as Promise<T>;
}

/** Entity views with the asked-for embeds: each includer runs once for all of `rows`, in parallel. */
export async function withIncludes(ctx: CatalogCtx, rows: CatalogEntity[], names: readonly string[]): Promise<CatalogEntityView[]> {
  const views = rows.map((row) => entityView(row));
  if (!names.length || !rows.length) {
    for (const view of views) for (const name of names) view.included[name] = includers.get(name)?.empty?.() ?? [];
    return views;
  }
  const ids = rows.map((row) => row.id);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const loaded = await Promise.all(names.map(async (name) => [name, await includers.get(name)!.load(ctx, ids)] as const));
  for (const view of views) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    for (const [name, byEntity] of loaded) view.included[name] = byEntity.get(view.id) ?? includers.get(name)!.empty?.() ?? [];
  }
  return views;
}

// ── the catalog's own includers ──

registerCatalogInclude({
  name: 'attributes',
  description: 'Localized attributes, one item per locale',
  async load(ctx, ids) {
    // Raw SQL on the pool (db/raw.ts): this runs for every list page that embeds attributes.
    // With the store's default locale on each row (store-locale.ts): titles without a locale
    // read these rows and that locale, and get both from this one statement.
    const rows = await queryRows<CatalogAttributes & { storeLocale: string | null }>(
      ctx.db,
      Prisma.sql`
      select entity_id as "entityId", locale, organization_id as "organizationId", title, description,
             seo_title as "seoTitle", seo_description as "seoDescription", created_at as "createdAt", updated_at as "updatedAt",
             ${storeLocaleColumn(ctx.organization.id)} as "storeLocale"
      from catalog_attributes
      where organization_id = ${ctx.organization.id}::uuid and entity_id = any(${ids}::uuid[])
      order by entity_id, locale`,
    );
    if (rows.length) knowStoreLocale(ctx, rows[0]?.storeLocale);
    return groupBy(rows.map(attributesView), (row) => row.entityId);
  },
});

registerCatalogInclude({
  name: 'variants',
  description: 'Variants with their option values',
  async load(ctx, ids) {
    // Draft and archived variants are not sold: storefront readers do not see them.
    const activeOnly = !seesUnpublished(ctx);
    return groupBy(await loadVariants(ctx.db, ctx.organization.id, { entityIds: ids }, { activeOnly }), (row) => row.entityId);
  },
});

registerCatalogInclude({
  name: 'optionTypes',
  description: 'Option types (axes such as size or color) with their values',
  async load(ctx, ids) {
    return groupBy(await loadOptionTypes(ctx.db, ctx.organization.id, ids), (row) => row.entityId);
  },
});

registerCatalogInclude({
  name: 'categories',
  description: 'Categories the entity belongs to',
  async load(ctx, ids) {
    const rows = await loadEntityCategories(ctx.db, ctx.organization.id, ids);
    return groupBy(
      rows,
      (row) => row.entityId,
      ({ entityId: _id, ...category }) => category,
    );
  },
});

registerCatalogInclude({
  name: 'brands',
  description: 'Brands the entity belongs to',
  async load(ctx, ids) {
    const rows = await loadEntityBrands(ctx.db, ctx.organization.id, ids);
    return groupBy(
      rows,
      (row) => row.entityId,
      ({ entityId: _id, ...brand }) => brand,
    );
  },
});

registerCatalogInclude({
  name: 'customFields',
  description: 'Approved custom-field values with their provenance, one row per field and locale',
  async load(ctx, ids) {
    const rows = await ctx.db.catalogCustomField.findMany({
      where: { organizationId: ctx.organization.id, entityId: { in: ids }, status: 'approved' },
      orderBy: [{ fieldName: 'asc' }, { locale: 'asc' }],
    });
    return groupBy(rows.map(customFieldView), (row) => row.entityId);
  },
});
