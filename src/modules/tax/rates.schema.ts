// Tax rate operations: GET, POST /tax/rates; PATCH, DELETE /tax/rates/:id (tax:manage).
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { notFound } from '../../errors.js';
import { MAX_RATE_BPS } from './schema.js';
import { createTaxRate, deleteTaxRate, findTaxRate, listTaxRates, updateTaxRate, type TaxRateView } from './rates.js';

const access = { permission: 'tax:manage' } as const;

const id = z.guid().describe('Tax rate UUID');
const taxClassId = z.guid().describe('The tax class this rate applies to');
const name = z.string().min(1).max(100).nullable().optional().describe('Label, e.g. "Germany standard"');
const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as DE')
  .describe('ISO 3166-1 alpha-2 country of the zone');
const region = z
  .string()
  .regex(/^([A-Za-z]{2}-)?[A-Za-z0-9]{1,3}$/, 'must be an ISO 3166-2 code such as US-CA')
  .nullable()
  .optional()
  .describe('ISO 3166-2 region (US-CA); a bare subdivision (CA) is prefixed with the country. Null: the whole country');
const postalPattern = z
  .string()
  .regex(/^[A-Za-z0-9 -]{1,16}\*?$/, 'must be a postal code, or a prefix ending in * such as 90*')
  .nullable()
  .optional()
  .describe('A postal code, or a prefix ending in * (902*). Compared upper-case without spaces. Null: any postal code');
const rateBps = z.number().int('must be a whole number of basis points').min(0).max(MAX_RATE_BPS).describe('Rate in basis points: 1900 = 19 %');

export const TaxRateRef = builder.objectRef<TaxRateView>('TaxRate').implement({
  description:
    "A tax class's rate in one zone. At checkout the destination (shipping address; the store's address for digital goods) picks the most specific " +
    "matching rate of the line's class: exact postal code, then longest postal prefix, then region, then country. No match: the class's own rate.",
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    taxClassId: t.expose('taxClassId', { type: 'UUID' }),
    name: t.exposeString('name', { nullable: true }),
    countryCode: t.exposeString('countryCode', { description: 'ISO 3166-1 alpha-2' }),
    region: t.exposeString('region', { nullable: true, description: 'ISO 3166-2; null: the whole country' }),
    postalPattern: t.exposeString('postalPattern', { nullable: true, description: 'Exact code or prefix ending in *; null: any' }),
    rateBps: t.exposeInt('rateBps', { description: 'Basis points: 1900 = 19 %' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

async function existing(ctx: Parameters<typeof findTaxRate>[0], rateId: string): Promise<TaxRateView> {
  const found = await findTaxRate(ctx, rateId);
  if (!found) throw notFound('Tax rate');
  return found;
}

defineOperation({
  name: 'taxRates',
  kind: 'query',
  summary: "List the organization's zone tax rates, by country, region and postal pattern",
  rest: { method: 'GET', path: '/tax/rates' },
  access,
  input: { taxClassId: taxClassId.optional(), countryCode: countryCode.optional() },
  output: [TaxRateRef],
  resolve: (ctx, input) => listTaxRates(ctx, input),
});

defineOperation({
  name: 'taxRateCreate',
  kind: 'mutation',
  summary: 'Create a zone rate for a tax class',
  description: 'A second rate for the same class and zone (country, region, postal pattern) is 409. An unknown taxClassId is 422.',
  rest: { method: 'POST', path: '/tax/rates', status: 201 },
  access,
  input: { taxClassId, name, countryCode, region, postalPattern, rateBps },
  output: TaxRateRef,
  resolve: (ctx, input) => createTaxRate(ctx, input),
  audit: { event: 'tax.rateCreate', entityType: 'tax_rate' },
});

defineOperation({
  name: 'taxRateUpdate',
  kind: 'mutation',
  summary: 'Update a zone rate',
  description: 'Only the fields sent change; null clears region or postalPattern (the rate then covers more of the country).',
  rest: { method: 'PATCH', path: '/tax/rates/:id' },
  access,
  input: { id, taxClassId: taxClassId.optional(), name, countryCode: countryCode.optional(), region, postalPattern, rateBps: rateBps.optional() },
  output: TaxRateRef,
  resolve: (ctx, { id: rateId, ...patch }) => updateTaxRate(ctx, rateId, patch),
  audit: { event: 'tax.rateUpdate', entityType: 'tax_rate', before: (ctx, input) => existing(ctx, input.id) },
});

defineOperation({
  name: 'taxRateDelete',
  kind: 'mutation',
  summary: "Delete a zone rate (the class's own rate applies there again)",
  rest: { method: 'DELETE', path: '/tax/rates/:id' },
  access,
  input: { id },
  output: TaxRateRef,
  resolve: (ctx, input) => deleteTaxRate(ctx, input.id),
  audit: { event: 'tax.rateDelete', entityType: 'tax_rate', before: (ctx, input) => existing(ctx, input.id), after: false },
});
