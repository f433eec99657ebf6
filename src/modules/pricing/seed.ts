// `commerce seed`: prices for the demo catalog (src/modules/catalog/seed.ts) in the store's
// currency (settings general.currency): one per product, and a dearer XL where the product comes
// in sizes. A storefront lists prices in the store currency, so a demo priced in another one
// would show none. Idempotent per currency: existing prices are left as they are, and seeding
// again after the currency changed adds the demo prices in the new one.
import type { ServiceContext } from '../../db/transaction.js';
import { createPrice, priceScopeKey } from './prices.service.js';

/** Demo product slug → price in hundredths of the currency's unit (USD cents, EUR cents). */
export const DEMO_PRICES: Record<string, number> = {
  'classic-crew-tee': 2800,
  'v-neck-tee': 2600,
  'pocket-tee': 2400,
  'trail-hoodie': 6800,
  'zip-hoodie': 7200,
  'canvas-tote': 1800,
  'daypack-20l': 8900,
  'wool-beanie': 3200,
  'six-panel-cap': 2900,
  'stoneware-mug': 2200,
  'pour-over-set': 5400,
  'desk-print': 3500,
};
/** What an XL costs above the product's price. */
export const XL_SURCHARGE = 300;

/**
 * A demo amount in the currency's minor units: the table is in hundredths, which is what most
 * currencies use; a currency with another exponent (JPY 0, BHD 3) keeps the same face value.
 */
export function demoAmount(hundredths: number, currency: string): number {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return Math.round((hundredths * 10 ** digits) / 100);
}

export async function seedPrices(ctx: ServiceContext, currency = 'USD'): Promise<number> {
  const entities = await ctx.db.catalogEntity.findMany({
    where: { organizationId: ctx.organization.id, slug: { in: Object.keys(DEMO_PRICES) } },
    select: { id: true, slug: true, variants: { select: { id: true, title: true } } },
  });
  const existing = await ctx.db.price.findMany({
    where: { organizationId: ctx.organization.id, currency, entityId: { in: entities.map((e) => e.id) } },
    select: { entityId: true, scopeKey: true },
  });
  const have = new Set(existing.map((p) => `${p.entityId}/${p.scopeKey}`));
  let created = 0;
  for (const entity of entities) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const amount = DEMO_PRICES[entity.slug]!;
    const wanted = [
      { variantId: null as string | null, amount: demoAmount(amount, currency) },
      ...entity.variants.filter((v) => v.title?.split(' / ').includes('XL')).map((v) => ({ variantId: v.id, amount: demoAmount(amount + XL_SURCHARGE, currency) })),
    ];
    for (const price of wanted) {
      if (have.has(`${entity.id}/${priceScopeKey(price.variantId, null)}`)) continue;
      await createPrice(ctx, { entityId: entity.id, variantId: price.variantId, currency, amount: price.amount });
      created += 1;
    }
  }
  return created;
}
