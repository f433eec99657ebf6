// `commerce seed`: the default warehouse, and demo stock for the demo catalog's variants
// (DEMO_STOCK units each, at a cost of 40 % of the demo price). Idempotent: a level that has
// ever moved is left as it is.
import type { ServiceContext } from '../../db/transaction.js';
import { DEMO_PRICES } from '../pricing/seed.js';
import { adjustStock } from './adjust.service.js';
import { ensureDefaultWarehouse } from './warehouses.service.js';

export const DEMO_STOCK = 20;

export async function seedWarehouse(ctx: ServiceContext): Promise<string> {
  return ensureDefaultWarehouse(ctx.db, ctx.organization.id);
}

export async function seedStock(ctx: ServiceContext): Promise<number> {
  const levels = await ctx.db.inventoryLevel.findMany({
    where: { organizationId: ctx.organization.id, onHand: 0, movements: { none: {} }, entity: { slug: { in: Object.keys(DEMO_PRICES) } } },
    select: { entityId: true, variantId: true, warehouseId: true, entity: { select: { slug: true } } },
  });
  for (const level of levels) {
    await adjustStock(ctx, {
      entityId: level.entityId,
      variantId: level.variantId,
      warehouseId: level.warehouseId,
      type: 'restock',
      quantity: DEMO_STOCK,
      unitCost: Math.round((DEMO_PRICES[level.entity.slug] ?? 0) * 0.4),
      note: 'demo stock (commerce seed)',
    });
  }
  return levels.length;
}
