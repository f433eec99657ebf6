// `commerce seed`: what a new store needs before its first request, and a demo catalog with
// prices in the store's currency, stock in a default warehouse and a default tax class.
// Idempotent: what exists is left as it is; run again after changing general.currency, it adds
// the demo prices in the new currency.
import type { Prisma } from './generated/prisma/client.js';
import type { Runtime } from './app.js';
import { seedCatalog } from './modules/catalog/seed.js';
import { seedStock, seedWarehouse } from './modules/inventory/seed.js';
import { seedPrices } from './modules/pricing/seed.js';
import { seedTaxClasses } from './modules/tax/seed.js';

const DEFAULT_SETTINGS: Record<string, Prisma.InputJsonObject> = {
  general: { currency: 'USD', timezone: 'UTC', locale: 'en' },
  policies: { refundUndoWindowMinutes: 15 },
  // Checkout adds shipping.flatRate (minor units), free from shipping.freeOver; receipts and
  // invoices show the branding identity.
  shipping: { flatRate: 500, freeOver: 5000 },
  branding: { storeName: 'Demo Store', receiptFooter: 'Thank you for shopping with us.' },
};

export interface SeedSummary {
  organization: string;
  settings: string[];
  prices: number;
  stockLevels: number;
  taxClasses: number;
}

export async function seed(runtime: Pick<Runtime, 'db' | 'services'>): Promise<SeedSummary> {
  const organization = await runtime.services.organizations.defaultOrganization();
  const created: string[] = [];
  for (const [group, values] of Object.entries(DEFAULT_SETTINGS)) {
    const result = await runtime.db.setting.createMany({ data: [{ organizationId: organization.id, group, values }], skipDuplicates: true });
    if (result.count) created.push(group);
  }
  const ctx = { db: runtime.db, organization, actor: null, requestId: 'seed' };
  // The warehouse first: the catalog's new variants get their zero stock there.
  await seedWarehouse(ctx);
  await seedCatalog(runtime, organization);
  const taxClasses = await seedTaxClasses(ctx);
  // The store's currency as it is now (a store set to EUR before seeding gets EUR prices).
  const general = await runtime.db.setting.findUnique({ where: { organizationId_group: { organizationId: organization.id, group: 'general' } }, select: { values: true } });
  const currency = (general?.values as { currency?: unknown } | null)?.currency;
  const prices = await seedPrices(ctx, typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : 'USD');
  const stockLevels = await seedStock(ctx);
  return { organization: organization.slug, settings: created, prices, stockLevels, taxClasses };
}
