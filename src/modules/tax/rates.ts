// Tax rates by zone: a tax class's rate in a country, optionally narrowed to an ISO 3166-2 region
// and a postal-code pattern (exact, or a prefix ending in `*`). Stored with '' for "any region"
// and "any postal code" so one unique key covers every zone (a duplicate is 409). The resolver
// (resolver.ts) picks the most specific row matching a destination.
import { conflict, notFound, validationFailed } from '../../errors.js';
import { uniqueViolation } from '../../db/errors.js';
import { withTransaction, type ServiceContext } from '../../db/transaction.js';
import type { TaxRate } from '../../generated/prisma/client.js';
import { normalizePostal, normalizeRegion } from './destination.js';

export interface TaxRateView {
  id: string;
  taxClassId: string;
  name: string | null;
  countryCode: string;
  region: string | null;
  postalPattern: string | null;
  rateBps: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TaxRateInput {
  taxClassId: string;
  name?: string | null;
  countryCode: string;
  region?: string | null;
  postalPattern?: string | null;
  rateBps: number;
}

export function taxRateView(row: TaxRate): TaxRateView {
  return {
    id: row.id,
    taxClassId: row.taxClassId,
    name: row.name,
    countryCode: row.countryCode,
    region: row.region || null,
    postalPattern: row.postalPattern || null,
    rateBps: row.rateBps,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The stored zone columns; a region of another country is 422 (it could never match). */
function zone(input: { countryCode: string; region?: string | null; postalPattern?: string | null }) {
  const countryCode = input.countryCode.toUpperCase();
  const region = normalizeRegion(countryCode, input.region);
  if (region && !region.startsWith(`${countryCode}-`))
    throw validationFailed([{ field: 'region', message: `must be a region of ${countryCode} (ISO 3166-2, e.g. ${countryCode}-XX)` }]);
  return { countryCode, region, postalPattern: normalizePostal(input.postalPattern) };
}

async function assertClass(ctx: ServiceContext, taxClassId: string): Promise<void> {
  const found = await ctx.db.taxClass.findFirst({ where: { id: taxClassId, organizationId: ctx.organization.id }, select: { id: true } });
  if (!found) throw validationFailed([{ field: 'taxClassId', message: 'no such tax class in this organization' }]);
}

function duplicate(error: unknown): never {
  if (uniqueViolation(error) !== null)
    throw conflict('this tax class already has a rate for that zone (country, region, postal pattern)', { fields: ['taxClassId', 'countryCode', 'region', 'postalPattern'] });
  throw error;
}

export async function listTaxRates(ctx: ServiceContext, filter: { taxClassId?: string | null; countryCode?: string | null } = {}): Promise<TaxRateView[]> {
  const rows = await ctx.db.taxRate.findMany({
    where: {
      organizationId: ctx.organization.id,
      ...(filter.taxClassId ? { taxClassId: filter.taxClassId } : {}),
      ...(filter.countryCode ? { countryCode: filter.countryCode.toUpperCase() } : {}),
    },
    orderBy: [{ countryCode: 'asc' }, { region: 'asc' }, { postalPattern: 'asc' }, { id: 'asc' }],
  });
  return rows.map(taxRateView);
}

export async function findTaxRate(ctx: ServiceContext, id: string): Promise<TaxRateView | null> {
  const row = await ctx.db.taxRate.findFirst({ where: { id, organizationId: ctx.organization.id } });
  return row ? taxRateView(row) : null;
}

export async function createTaxRate(ctx: ServiceContext, input: TaxRateInput): Promise<TaxRateView> {
  const z = zone(input);
  await assertClass(ctx, input.taxClassId);
  try {
    const row = await ctx.db.taxRate.create({
      data: { organizationId: ctx.organization.id, taxClassId: input.taxClassId, name: input.name ?? null, rateBps: input.rateBps, ...z },
    });
    return taxRateView(row);
  } catch (error) {
    return duplicate(error);
  }
}

export async function updateTaxRate(ctx: ServiceContext, id: string, patch: Partial<TaxRateInput>): Promise<TaxRateView> {
  try {
    return await withTransaction(ctx, async (tx) => {
      const existing = await tx.taxRate.findFirst({ where: { id, organizationId: ctx.organization.id } });
      if (!existing) throw notFound('Tax rate');
      if (patch.taxClassId && patch.taxClassId !== existing.taxClassId) await assertClass({ ...ctx, db: tx }, patch.taxClassId);
      const z = zone({
        countryCode: patch.countryCode ?? existing.countryCode,
        region: patch.region !== undefined ? patch.region : existing.region,
        postalPattern: patch.postalPattern !== undefined ? patch.postalPattern : existing.postalPattern,
      });
      const row = await tx.taxRate.update({
        where: { id },
        data: {
          ...z,
          ...(patch.taxClassId ? { taxClassId: patch.taxClassId } : {}),
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.rateBps !== undefined ? { rateBps: patch.rateBps } : {}),
        },
      });
      return taxRateView(row);
    });
  } catch (error) {
    return duplicate(error);
  }
}

export async function deleteTaxRate(ctx: ServiceContext, id: string): Promise<TaxRateView> {
  return withTransaction(ctx, async (tx) => {
    const existing = await tx.taxRate.findFirst({ where: { id, organizationId: ctx.organization.id } });
    if (!existing) throw notFound('Tax rate');
    return taxRateView(await tx.taxRate.delete({ where: { id } }));
  });
}
