// Catalog entity operations: list, get, create, update, delete, publish, archive, discontinue.
import { z } from 'zod';
import { defineOperation } from '../../../graphql/operation.js';
import { pageOf } from '../../../graphql/pagination.js';
import { pageInput } from '../../../graphql/zod-args.js';
import { availableIncludes } from '../include.js';
import { ENTITY_STATUSES, SORT_FIELDS, createEntity, deleteEntity, getEntity, listEntities, transitionEntity, updateEntity } from './service.js';
import { DEFAULT_LOCALE, PERMISSION, entityTypeSchema, jsonObject, localeSchema, slugSchema } from '../shared.js';
import { CatalogEntityRef } from '../types.js';

const id = z.guid().describe('Entity UUID');
const status = z.enum(ENTITY_STATUSES);
// REST only (rest.queryOnly): over GraphQL the selection is the include.
const include = z
  .string()
  .max(500)
  .optional()
  .describe(
    'Comma-separated embeds: attributes, variants, optionTypes, categories, brands, customFields (and those of installed modules: media, inventory, pricing, availability). An unknown or unavailable name is 422.',
  );
const includeNote = () => `Embeddable now: ${availableIncludes().join(', ')}.`;
const taxClassId = z.guid().nullable().optional().describe("Tax class (tax module); a variant's own class wins over it");
const sourceStoreId = z.string().min(1).max(128).nullable().optional().describe('Connected store this entity is sourced from; setting it needs catalog:sync');
const locale = localeSchema.default(DEFAULT_LOCALE).describe('Locale of the customFields values in this request, default en');

const CatalogEntityPage = pageOf('CatalogEntity', CatalogEntityRef);

defineOperation({
  name: 'catalogEntities',
  kind: 'query',
  summary: 'List catalog entities',
  description:
    'Filters: type, status, category (id or slug), brand (id or slug). Sorted by `sort=field:direction` ' +
    `(fields ${SORT_FIELDS.join(', ')}; default createdAt:desc). Entities that are not active are listed only for callers ` +
    `with catalog:read:unpublished. Every embed costs a fixed number of SQL statements whatever the page size. ${includeNote()}`,
  rest: { method: 'GET', path: '/catalog/entities', queryOnly: ['include'] },
  access: { permission: PERMISSION.read },
  input: {
    type: entityTypeSchema.optional().describe('Entity type, e.g. product'),
    status: status.optional().describe('draft, active, archived or discontinued'),
    category: z.string().min(1).max(200).optional().describe('Category id or slug'),
    brand: z.string().min(1).max(200).optional().describe('Brand id or slug'),
    ...pageInput(20, 100),
    sort: z.string().max(40).optional().describe('field:direction, e.g. createdAt:desc or slug:asc'),
    include,
  },
  output: CatalogEntityPage,
  paginated: true,
  resolve: (ctx, input) => listEntities(ctx, input),
});

defineOperation({
  name: 'catalogEntity',
  kind: 'query',
  summary: 'Get one catalog entity by UUID or slug',
  description: 'Entities that are not active are 404 unless the caller has catalog:read:unpublished.',
  rest: { method: 'GET', path: '/catalog/entities/:id', pathArgs: { id: 'idOrSlug' }, queryOnly: ['include'] },
  access: { permission: PERMISSION.read },
  input: { idOrSlug: z.string().min(1).max(200).describe('Entity UUID or slug'), include },
  output: CatalogEntityRef,
  resolve: (ctx, input) => getEntity(ctx, input.idOrSlug, input.include),
});

defineOperation({
  name: 'catalogEntityCreate',
  kind: 'mutation',
  summary: 'Create a catalog entity',
  description:
    'The slug is unique per organization (a duplicate is 409 CONFLICT). `customFields` is an object keyed by field name, ' +
    'validated against the field definitions of the entity type (unknown, archived, mistyped or missing required fields are 422 ' +
    'naming `customFields.<name>`); the values are stored approved, with provenance, and the answer embeds them. ' +
    'Emits catalog.create.',
  rest: { method: 'POST', path: '/catalog/entities', status: 201 },
  access: { permission: PERMISSION.create },
  input: {
    type: entityTypeSchema.describe('Entity type, e.g. product or digitalDownload'),
    slug: slugSchema,
    status: status.default('draft').describe('Initial status, default draft'),
    metadata: jsonObject.optional().describe('Free-form object'),
    customFields: jsonObject.optional().describe('Custom-field values keyed by field name'),
    locale,
    taxClassId,
    sourceStoreId,
  },
  output: CatalogEntityRef,
  resolve: (ctx, input) => createEntity(ctx, input),
});

defineOperation({
  name: 'catalogEntityUpdate',
  kind: 'mutation',
  summary: 'Update a catalog entity',
  description:
    'Only the keys sent change. `metadata` replaces the whole object. `customFields` is a patch: a value sets the field, ' +
    'an explicit null clears it (422 for a required field), omitted keys are untouched. The type is set at creation; isGiftCard ' +
    'turns a product into a gift-card product (type giftCard) or back (type product) while it holds no custom-field values (422 otherwise). ' +
    'Emits catalog.update with the changed keys.',
  rest: { method: 'PATCH', path: '/catalog/entities/:id' },
  access: { permission: PERMISSION.update },
  input: {
    id,
    slug: slugSchema.optional(),
    status: status.optional(),
    metadata: jsonObject.optional().describe('Replaces the metadata object'),
    customFields: jsonObject.optional().describe('Patch: value sets, null clears, omitted untouched'),
    locale,
    taxClassId,
    sourceStoreId,
    isGiftCard: z.boolean().optional().describe('true: a gift-card product (type giftCard: each unit bought issues a gift card); false: a product'),
  },
  output: CatalogEntityRef,
  resolve: (ctx, input) => updateEntity(ctx, input.id, input),
});

defineOperation({
  name: 'catalogEntityDelete',
  kind: 'mutation',
  summary: 'Delete a catalog entity',
  description: 'Removes the entity with its attributes, options, variants, memberships, custom fields and ownership rows; answers the deleted entity. Emits catalog.delete.',
  rest: { method: 'DELETE', path: '/catalog/entities/:id' },
  access: { permission: PERMISSION.delete },
  input: { id },
  output: CatalogEntityRef,
  resolve: (ctx, input) => deleteEntity(ctx, input.id),
});

const transitions = [
  ['catalogEntityPublish', 'publish', 'active', 'Publish: move to active'],
  ['catalogEntityArchive', 'archive', 'archived', 'Archive: move to archived'],
  ['catalogEntityDiscontinue', 'discontinue', 'discontinued', 'Discontinue: move to discontinued'],
] as const;

for (const [name, verb, to, summary] of transitions) {
  defineOperation({
    name,
    kind: 'mutation',
    summary,
    description: `Allowed from any status. Emits catalog.update (changes: status) when the status changes; ${verb} of an entity already ${to} changes nothing.`,
    rest: { method: 'POST', path: `/catalog/entities/:id/${verb}` },
    access: { permission: PERMISSION.update },
    input: { id },
    output: CatalogEntityRef,
    resolve: (ctx, input) => transitionEntity(ctx, input.id, to),
  });
}
