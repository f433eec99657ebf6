// The catalog embed `include=pricing`: the prices of each entity of a page and of its variants,
// loaded for the whole page in one statement. Prices for a customer group are part of it only
// for callers who may read prices (pricing:read, pricing:update or pricing:manage); everyone else
// who can read the catalog sees the public prices, as a storefront would show them.
import { hasAnyPermission } from '../../auth/permissions.js';
import { queryRows } from '../../db/raw.js';
import { Prisma, type Price } from '../../generated/prisma/client.js';
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
    // Raw SQL on the pool (db/raw.ts): this runs for every list page that embeds prices. The
    // amount comes back as text (int8) and becomes the BigInt Prisma would have given.
    const rows = await queryRows<Omit<Price, 'amount'> & { amount: string }>(
      ctx.db,
      Prisma.sql`
      select id, organization_id as "organizationId", entity_id as "entityId", variant_id as "variantId", currency,
             amount::text as amount, customer_group_id as "customerGroupId", scope_key as "scopeKey",
             created_at as "createdAt", updated_at as "updatedAt"
      from prices
      where organization_id = ${ctx.organization.id}::uuid and entity_id = any(${ids}::uuid[])
        ${seesGroups ? Prisma.empty : Prisma.sql`and customer_group_id is null`}
      order by currency, variant_id nulls first, customer_group_id nulls first`,
    );
    const byEntity = new Map<string, PriceView[]>();
    for (const row of rows) {
      const list = byEntity.get(row.entityId) ?? [];
      list.push(priceView({ ...row, amount: BigInt(row.amount) }));
      byEntity.set(row.entityId, list);
    }
    return byEntity;
  },
});
