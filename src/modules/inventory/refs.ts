// Resolving what an inventory call names: the entity and variant (of that entity) in the caller's
// organization, and the warehouse (the one named, else the organization's default) — one SQL
// statement; 404 for each that is missing.
import { notFound } from '../../errors.js';
import type { DbClient, ServiceContext } from '../../db/transaction.js';
import { ensureDefaultWarehouse } from './warehouses.service.js';

export interface StockKey {
  entityId: string;
  variantId: string | null;
  /** variant id, or '' for entity-level stock (the level's unique key). */
  variantKey: string;
  /** Null when none was named and the organization has no default warehouse yet. */
  warehouseId: string | null;
}

export interface StockRefInput {
  entityId: string;
  variantId?: string | null;
  warehouseId?: string | null;
}

export async function resolveStockKey(db: DbClient, ctx: ServiceContext, input: StockRefInput): Promise<StockKey> {
  const org = ctx.organization.id;
  const rows = await db.$queryRaw<Array<{ variant_id: string | null; warehouse_id: string | null }>>`
    select v.id as variant_id, w.id as warehouse_id
    from catalog_entities e
    left join catalog_variants v on v.id = ${input.variantId ?? null}::uuid and v.entity_id = e.id
    left join warehouses w on w.organization_id = e.organization_id
      and (case when ${input.warehouseId ?? null}::uuid is null then w.is_default else w.id = ${input.warehouseId ?? null}::uuid end)
    where e.id = ${input.entityId}::uuid and e.organization_id = ${org}::uuid`;
  const row = rows[0];
  if (!row) throw notFound('Catalog entity');
  if (input.variantId && !row.variant_id) throw notFound('Variant of this entity');
  if (input.warehouseId && !row.warehouse_id) throw notFound('Warehouse');
  return { entityId: input.entityId, variantId: input.variantId ?? null, variantKey: input.variantId ?? '', warehouseId: row.warehouse_id };
}

/** As resolveStockKey, creating the default warehouse when none was named and none exists. */
export async function resolveStockKeyForWrite(db: DbClient, ctx: ServiceContext, input: StockRefInput): Promise<StockKey & { warehouseId: string }> {
  const key = await resolveStockKey(db, ctx, input);
  return { ...key, warehouseId: key.warehouseId ?? (await ensureDefaultWarehouse(db, ctx.organization.id)) };
}
