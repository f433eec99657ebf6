// Batch reads for embeds, one SQL statement each: variants with their option values, option
// types with their values, and category/brand memberships with the records. Hand-written SQL
// (rather than nested Prisma includes, which cost one statement per relation level and most of
// a list's CPU time) because these run for every page of every catalog list that asks for them.
import { queryRows } from '../../db/raw.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../db/client.js';
import type { BrandView, CategoryView, OptionTypeView, VariantOptionView, VariantView } from './views.js';

type Json = Record<string, unknown>;

interface VariantRow {
  id: string;
  entityId: string;
  sku: string;
  title: string | null;
  status: string;
  taxClassId: string | null;
  weightGrams: number | null;
  lengthMm: number | null;
  widthMm: number | null;
  heightMm: number | null;
  metadata: Json | null;
  createdAt: Date;
  updatedAt: Date;
  options: Array<VariantOptionView & { valueSort: number }>;
}

/**
 * Variants in option order: by each option value's position along the entity's axes (S before
 * M, red before blue), so a matrix lists the way its axes do; creation order breaks ties.
 */
function byOptionOrder(a: VariantRow, b: VariantRow): number {
  for (let i = 0; i < Math.max(a.options.length, b.options.length); i += 1) {
    const diff = (a.options[i]?.valueSort ?? -1) - (b.options[i]?.valueSort ?? -1);
    if (diff) return diff;
  }
  return a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);
}

/**
 * Variants (with option values) of some entities, or some variants by id; in option order.
 * `activeOnly` leaves out draft and archived variants (what storefront readers may see).
 */
export async function loadVariants(
  db: Db | Tx,
  organizationId: string,
  by: { entityIds: string[] } | { ids: string[] },
  options: { activeOnly?: boolean } = {},
): Promise<VariantView[]> {
  const [column, ids] = 'entityIds' in by ? [Prisma.raw('v.entity_id'), by.entityIds] : [Prisma.raw('v.id'), by.ids];
  if (!ids.length) return [];
  const statusFilter = options.activeOnly ? Prisma.sql`and v.status = 'active'` : Prisma.empty;
  const rows = await queryRows<VariantRow>(
    db,
    Prisma.sql`
    select v.id, v.entity_id as "entityId", v.sku, v.title, v.status::text as status, v.tax_class_id as "taxClassId", v.metadata,
           v.weight_grams as "weightGrams", v.length_mm as "lengthMm", v.width_mm as "widthMm", v.height_mm as "heightMm",
           v.created_at as "createdAt", v.updated_at as "updatedAt",
           coalesce(json_agg(json_build_object(
             'optionTypeId', t.id, 'optionName', t.name, 'optionValueId', ov.id, 'value', ov.value, 'valueSort', ov.sort_order
           ) order by t.sort_order, t.name) filter (where ov.id is not null), '[]') as options
    from catalog_variants v
    left join catalog_variant_options vo on vo.variant_id = v.id
    left join catalog_option_values ov on ov.id = vo.option_value_id
    left join catalog_option_types t on t.id = ov.option_type_id
    where v.organization_id = ${organizationId}::uuid and ${column} = any(${ids}::uuid[]) ${statusFilter}
    group by v.id`,
  );
  return rows.sort(byOptionOrder).map((row) => ({
    id: row.id,
    entityId: row.entityId,
    sku: row.sku,
    title: row.title,
    status: row.status,
    taxClassId: row.taxClassId,
    weightGrams: row.weightGrams,
    lengthMm: row.lengthMm,
    widthMm: row.widthMm,
    heightMm: row.heightMm,
    metadata: row.metadata ?? {},
    optionValues: row.options.map(({ valueSort: _sort, ...option }) => option),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }));
}

/** Option types (with their values) of some entities, in axis order. */
export async function loadOptionTypes(db: Db | Tx, organizationId: string, entityIds: string[]): Promise<OptionTypeView[]> {
  if (!entityIds.length) return [];
  return queryRows<OptionTypeView>(
    db,
    Prisma.sql`
    select t.id, t.entity_id as "entityId", t.name, t.label, t.sort_order as "sortOrder", t.created_at as "createdAt",
           coalesce(json_agg(json_build_object(
             'id', ov.id, 'optionTypeId', ov.option_type_id, 'value', ov.value, 'label', ov.label, 'sortOrder', ov.sort_order
           ) order by ov.sort_order, ov.created_at, ov.id) filter (where ov.id is not null), '[]') as values
    from catalog_option_types t
    left join catalog_option_values ov on ov.option_type_id = t.id
    where t.organization_id = ${organizationId}::uuid and t.entity_id = any(${entityIds}::uuid[])
    group by t.id
    order by t.sort_order, t.created_at, t.id`,
  );
}

/** Categories of some entities, with the entity each membership belongs to. */
export function loadEntityCategories(db: Db | Tx, organizationId: string, entityIds: string[]): Promise<Array<CategoryView & { entityId: string }>> {
  return queryRows(
    db,
    Prisma.sql`
    select m.entity_id as "entityId", c.id, c.name, c.slug, c.description, c.parent_id as "parentId", c.sort_order as "sortOrder",
           c.metadata, c.created_at as "createdAt", c.updated_at as "updatedAt"
    from catalog_entity_categories m
    join catalog_categories c on c.id = m.category_id
    where m.organization_id = ${organizationId}::uuid and m.entity_id = any(${entityIds}::uuid[])
    order by m.created_at, c.id`,
  );
}

/** Brands of some entities, with the entity each membership belongs to. */
export function loadEntityBrands(db: Db | Tx, organizationId: string, entityIds: string[]): Promise<Array<BrandView & { entityId: string }>> {
  return queryRows(
    db,
    Prisma.sql`
    select m.entity_id as "entityId", b.id, b.name, b.slug, b.description, b.logo_url as "logoUrl", b.website_url as "websiteUrl",
           b.sort_order as "sortOrder", b.metadata, b.created_at as "createdAt", b.updated_at as "updatedAt"
    from catalog_entity_brands m
    join catalog_brands b on b.id = m.brand_id
    where m.organization_id = ${organizationId}::uuid and m.entity_id = any(${entityIds}::uuid[])
    order by m.created_at, b.id`,
  );
}
