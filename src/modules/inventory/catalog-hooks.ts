// What inventory adds to the catalog:
//   - zero stock for every new variant (the spec's "variants/quick ... seeds zero stock"): one
//     level with 0 on hand in the organization's default warehouse (created when there is none),
//     inside the transaction that creates the variants;
//   - the embed `include=inventory` (needs inventory:read, like GET /inventory/check).
import { forbidden } from '../../errors.js';
import { hasPermission } from '../../auth/permissions.js';
import { onVariantsCreated, registerCatalogInclude } from '../catalog/index.js';
import { checkAvailability, type EntityAvailability } from './availability.js';
import { ensureDefaultWarehouse } from './warehouses.service.js';

export const INVENTORY_INCLUDE = {
  name: 'inventory',
  description: 'Stock of the entity: totals, per variant, per warehouse and per level (needs inventory:read)',
};

onVariantsCreated(async (tx, ctx, variants) => {
  const warehouseId = await ensureDefaultWarehouse(tx, ctx.organization.id);
  await tx.inventoryLevel.createMany({
    data: variants.map((variant) => ({
      organizationId: ctx.organization.id,
      entityId: variant.entityId,
      variantId: variant.id,
      variantKey: variant.id,
      warehouseId,
      onHand: 0,
    })),
    skipDuplicates: true,
  });
});

registerCatalogInclude<EntityAvailability>({
  ...INVENTORY_INCLUDE,
  async load(ctx, ids) {
    if (!hasPermission(ctx.actor?.permissions ?? [], 'inventory:read')) {
      throw forbidden('Insufficient permissions: include=inventory needs inventory:read');
    }
    const list = await checkAvailability(ctx, ids);
    return new Map(list.map((entry) => [entry.entityId, entry]));
  },
});
