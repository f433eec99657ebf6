// The catalog embed `include=pricing`: the prices of each entity of a page and of its variants,
// loaded for the whole page in one statement. Prices for a customer group are part of it only
// for callers who may read prices (pricing:read, pricing:update or pricing:manage); everyone else
// who can read the catalog sees the public prices, as a storefront would show them.
import { hasAnyPermission } from '../../auth/permissions.js';
import { registerCatalogInclude } from '../catalog/index.js';
import { priceView, type PriceView } from './prices.service.js';
import { PRICING } from './shared.js';

export const PRICING_INCLUDE = {
  name: 'pricing',
  description: 'Prices of the entity and its variants (customer-group prices only for callers with a pricing read permission)',
};

registerCatalogInclude<PriceView[]>({
  ...PRICING_INCLUDE,
  async load(ctx, ids) {
    const seesGroups = hasAnyPermission(ctx.actor?.permissions ?? [], PRICING.lists.anyPermission);
    const rows = await ctx.db.price.findMany({
      where: { organizationId: ctx.organization.id, entityId: { in: ids }, ...(seesGroups ? {} : { customerGroupId: null }) },
      orderBy: [{ currency: 'asc' }, { variantId: { sort: 'asc', nulls: 'first' } }, { customerGroupId: { sort: 'asc', nulls: 'first' } }],
    });
    const byEntity = new Map<string, PriceView[]>();
    for (const row of rows) {
      const list = byEntity.get(row.entityId) ?? [];
      list.push(priceView(row));
      byEntity.set(row.entityId, list);
    }
    return byEntity;
  },
});
