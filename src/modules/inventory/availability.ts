// Availability of many entities at once (GET /inventory/check, the catalog embed
// `include=inventory`): per entity in total, per variant, per warehouse and per level, from one
// SQL statement whatever the number of entities.
//
// `available` of a level is on hand − reserved, floored at 0 when totals add levels up (a level
// oversold by a backorder does not hide another warehouse's stock). An entity without any stock
// row is reported with zeros and `tracked: false`, whether or not it exists: availability never
// tells a caller which ids exist in another organization.
import type { ServiceContext } from '../../db/transaction.js';
import { queryRows } from '../../db/raw.js';
import { Prisma } from '../../generated/prisma/client.js';

export interface StockFigures {
  onHand: number;
  reserved: number;
  available: number;
}

export interface LevelAvailability extends StockFigures {
  variantId: string | null;
  warehouseId: string;
}

export interface VariantAvailability extends StockFigures {
  /** Null for entity-level stock. */
  variantId: string | null;
}

export interface WarehouseAvailability extends StockFigures {
  warehouseId: string;
}

export interface EntityAvailability extends StockFigures {
  entityId: string;
  /** The entity has at least one stock level. */
  tracked: boolean;
  inStock: boolean;
  variants: VariantAvailability[];
  warehouses: WarehouseAvailability[];
  levels: LevelAvailability[];
}

function add(target: StockFigures, level: StockFigures): void {
  target.onHand += level.onHand;
  target.reserved += level.reserved;
  target.available += Math.max(0, level.available);
}

function untracked(entityId: string): EntityAvailability {
  return { entityId, tracked: false, inStock: false, onHand: 0, reserved: 0, available: 0, variants: [], warehouses: [], levels: [] };
}

export async function checkAvailability(ctx: ServiceContext, entityIds: readonly string[]): Promise<EntityAvailability[]> {
  const ids = [...new Set(entityIds.map((id) => id.toLowerCase()))];
  if (!ids.length) return [];
  // Raw SQL on the pool (db/raw.ts): this runs for every catalog page with include=inventory
  // or variant stock; the rows are the ones Prisma's findMany gave (int4 figures as numbers).
  const rows = await queryRows<{ entityId: string; variantId: string | null; warehouseId: string; onHand: number; reserved: number }>(
    ctx.db,
    Prisma.sql`
    select entity_id as "entityId", variant_id as "variantId", warehouse_id as "warehouseId", on_hand as "onHand", reserved
    from inventory_levels
    where organization_id = ${ctx.organization.id}::uuid and entity_id = any(${ids}::uuid[])
    order by entity_id, variant_key, warehouse_id`,
  );
  const byEntity = new Map<string, EntityAvailability>(ids.map((id) => [id, untracked(id)]));
  for (const row of rows) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const entity = byEntity.get(row.entityId)!;
    const level: LevelAvailability = { variantId: row.variantId, warehouseId: row.warehouseId, onHand: row.onHand, reserved: row.reserved, available: row.onHand - row.reserved };
    entity.tracked = true;
    entity.levels.push(level);
    add(entity, level);
    let variant = entity.variants.find((v) => v.variantId === row.variantId);
    if (!variant) entity.variants.push((variant = { variantId: row.variantId, onHand: 0, reserved: 0, available: 0 }));
    add(variant, level);
    let warehouse = entity.warehouses.find((w) => w.warehouseId === row.warehouseId);
    if (!warehouse) entity.warehouses.push((warehouse = { warehouseId: row.warehouseId, onHand: 0, reserved: 0, available: 0 }));
    add(warehouse, level);
  }
  for (const entity of byEntity.values()) entity.inStock = entity.available > 0;
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return ids.map((id) => byEntity.get(id)!);
}
