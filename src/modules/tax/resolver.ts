// The per-line tax rate the checkout applies, resolved in the spec's order:
//   1. the variant's tax class,
//   2. the entity's tax class,
//   3. the organization's default class,
//   4. none: rate 0.
// A class that is inactive, missing or of another organization is skipped (the next step
// decides), so deactivating a class moves its lines to the default rather than to 0 %.
// One SQL statement for any number of lines.
import type { ServiceContext } from '../../db/transaction.js';

export interface TaxLine {
  entityId: string;
  variantId?: string | null;
}

export type TaxSource = 'variant' | 'entity' | 'default' | 'none';

export interface ResolvedTax {
  entityId: string;
  variantId: string | null;
  taxClassId: string | null;
  taxClassName: string | null;
  rateBps: number;
  source: TaxSource;
}

interface Row {
  idx: bigint | number;
  variant_class_id: string | null;
  variant_class_name: string | null;
  variant_rate: number | null;
  entity_class_id: string | null;
  entity_class_name: string | null;
  entity_rate: number | null;
  default_class_id: string | null;
  default_class_name: string | null;
  default_rate: number | null;
}

export async function resolveTaxRates(ctx: ServiceContext, lines: readonly TaxLine[]): Promise<ResolvedTax[]> {
  if (!lines.length) return [];
  const org = ctx.organization.id;
  const entityIds = lines.map((line) => line.entityId);
  const variantIds = lines.map((line) => line.variantId ?? null);
  const rows = await ctx.db.$queryRaw<Row[]>`
    with lines as (
      select * from unnest(${entityIds}::uuid[], ${variantIds}::uuid[]) with ordinality as l(entity_id, variant_id, idx)
    ),
    default_class as (
      select id, name, rate_bps from tax_classes where organization_id = ${org}::uuid and is_default and is_active limit 1
    )
    select l.idx,
      vc.id as variant_class_id, vc.name as variant_class_name, vc.rate_bps as variant_rate,
      ec.id as entity_class_id, ec.name as entity_class_name, ec.rate_bps as entity_rate,
      dc.id as default_class_id, dc.name as default_class_name, dc.rate_bps as default_rate
    from lines l
    left join catalog_variants v on v.id = l.variant_id and v.entity_id = l.entity_id and v.organization_id = ${org}::uuid
    left join tax_classes vc on vc.id = v.tax_class_id and vc.organization_id = ${org}::uuid and vc.is_active
    left join catalog_entities e on e.id = l.entity_id and e.organization_id = ${org}::uuid
    left join tax_classes ec on ec.id = e.tax_class_id and ec.organization_id = ${org}::uuid and ec.is_active
    left join default_class dc on true
    order by l.idx`;
  return rows.map((row, index) => {
    const line = lines[index]!;
    const base = { entityId: line.entityId, variantId: line.variantId ?? null };
    if (row.variant_class_id) return { ...base, taxClassId: row.variant_class_id, taxClassName: row.variant_class_name, rateBps: row.variant_rate!, source: 'variant' };
    if (row.entity_class_id) return { ...base, taxClassId: row.entity_class_id, taxClassName: row.entity_class_name, rateBps: row.entity_rate!, source: 'entity' };
    if (row.default_class_id) return { ...base, taxClassId: row.default_class_id, taxClassName: row.default_class_name, rateBps: row.default_rate!, source: 'default' };
    return { ...base, taxClassId: null, taxClassName: null, rateBps: 0, source: 'none' };
  });
}

// ── shipping (issue 25; the shipping branch's first version, without destination) ──

/** Where goods go; the tax branch resolves zone rates from it. */
export interface TaxDestination {
  countryCode: string;
  region?: string | null;
  postalCode?: string | null;
}

/**
 * The rate of one tax class (a shipping method's), resolved like a line's: the class when it is
 * active and the organization's, else the default class, else 0. One statement.
 */
export async function resolveClassRate(ctx: ServiceContext, taxClassId: string | null, _destination?: TaxDestination): Promise<{ taxClassId: string | null; rateBps: number }> {
  const org = ctx.organization.id;
  const rows = await ctx.db.$queryRaw<Array<{ id: string; rate_bps: number }>>`
    select id, rate_bps from (
      select id, rate_bps, 0 as rank from tax_classes where id = ${taxClassId}::uuid and organization_id = ${org}::uuid and is_active
      union all
      select id, rate_bps, 1 as rank from tax_classes where organization_id = ${org}::uuid and is_default and is_active
    ) c order by rank limit 1`;
  const row = rows[0];
  return row ? { taxClassId: row.id, rateBps: row.rate_bps } : { taxClassId: null, rateBps: 0 };
}
