// Tax class operations: GET, POST /tax/classes; PATCH, DELETE /tax/classes/:id (tax:manage).
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { notFound } from '../../errors.js';
import { createTaxClass, deleteTaxClass, findTaxClass, listTaxClasses, updateTaxClass, type TaxClassView } from './service.js';

const access = { permission: 'tax:manage' } as const;
/** Basis points: 2000 = 20 %. Above 100 % is almost always a percent typed as bps. */
export const MAX_RATE_BPS = 10_000;

const name = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, 'must be a slug: lowercase letters and digits separated by - or _, e.g. reduced-rate')
  .describe('Slug, unique per organization, e.g. standard or reduced-rate');
const rateBps = z.number().int('must be a whole number of basis points').min(0).max(MAX_RATE_BPS).describe('Rate in basis points: 2000 = 20 %, at most 10000');
const description = z.string().max(500).nullable().optional().describe('Free text');
const isDefault = z.boolean().optional().describe("Make this the organization's default class (unsets the previous default)");
const isActive = z.boolean().optional().describe("Inactive classes are skipped when resolving a line's rate");
const id = z.guid().describe('Tax class UUID');

export const TaxClassRef = builder.objectRef<TaxClassView>('TaxClass').implement({
  description: 'A tax rate applied per order line: variant class, else entity class, else the default class, else 0.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    name: t.exposeString('name', { description: 'Slug, unique per organization' }),
    description: t.exposeString('description', { nullable: true }),
    rateBps: t.exposeInt('rateBps', { description: 'Basis points: 2000 = 20 %' }),
    isDefault: t.exposeBoolean('isDefault', { description: "The organization's default class (at most one)" }),
    isActive: t.exposeBoolean('isActive'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

async function existing(ctx: Parameters<typeof findTaxClass>[0], classId: string): Promise<TaxClassView> {
  const found = await findTaxClass(ctx, classId);
  if (!found) throw notFound('Tax class');
  return found;
}

defineOperation({
  name: 'taxClasses',
  kind: 'query',
  summary: "List the organization's tax classes, by name",
  rest: { method: 'GET', path: '/tax/classes' },
  access,
  input: {},
  output: [TaxClassRef],
  resolve: (ctx) => listTaxClasses(ctx),
});

defineOperation({
  name: 'taxClassCreate',
  kind: 'mutation',
  summary: 'Create a tax class',
  description: 'A duplicate name is 409. `isDefault: true` makes it the default and unsets the previous one.',
  rest: { method: 'POST', path: '/tax/classes', status: 201 },
  access,
  input: { name, rateBps, description, isDefault, isActive },
  output: TaxClassRef,
  resolve: (ctx, input) => createTaxClass(ctx, input),
  audit: { event: 'tax.classCreate', entityType: 'tax_class' },
});

defineOperation({
  name: 'taxClassUpdate',
  kind: 'mutation',
  summary: 'Update a tax class',
  description: 'Only the fields sent change. `isDefault: true` unsets the previous default.',
  rest: { method: 'PATCH', path: '/tax/classes/:id' },
  access,
  input: { id, name: name.optional(), rateBps: rateBps.optional(), description, isDefault, isActive },
  output: TaxClassRef,
  resolve: (ctx, { id: classId, ...patch }) => updateTaxClass(ctx, classId, patch),
  audit: { event: 'tax.classUpdate', entityType: 'tax_class', before: (ctx, input) => existing(ctx, input.id) },
});

defineOperation({
  name: 'taxClassDelete',
  kind: 'mutation',
  summary: 'Delete a tax class no entity or variant uses',
  description: 'A class still referenced by an entity or a variant is 409: reassign them or deactivate the class instead.',
  rest: { method: 'DELETE', path: '/tax/classes/:id' },
  access,
  input: { id },
  output: TaxClassRef,
  resolve: (ctx, input) => deleteTaxClass(ctx, input.id),
  audit: { event: 'tax.classDelete', entityType: 'tax_class', before: (ctx, input) => existing(ctx, input.id), after: false },
});
