// `commerce seed`: a default tax class, so demo orders carry tax. Idempotent: an organization
// that already has a default class keeps it.
import type { ServiceContext } from '../../db/transaction.js';
import { createTaxClass } from './service.js';

export const DEMO_TAX_CLASS = { name: 'standard', description: 'Standard rate (demo)', rateBps: 800, isDefault: true } as const;

export async function seedTaxClasses(ctx: ServiceContext): Promise<number> {
  const existing = await ctx.db.taxClass.findFirst({ where: { organizationId: ctx.organization.id, OR: [{ isDefault: true }, { name: DEMO_TAX_CLASS.name }] } });
  if (existing) return 0;
  await createTaxClass(ctx, DEMO_TAX_CLASS);
  return 1;
}
