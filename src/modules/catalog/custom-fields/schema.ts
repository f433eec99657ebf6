// Custom fields: definitions (/admin/entity-field-definitions), proposals, the organization
// queue (/admin/custom-field-proposals), approve and reject.
import { z } from 'zod';
import { defineOperation } from '../../../graphql/operation.js';
import { pageOf } from '../../../graphql/pagination.js';
import { pageInput } from '../../../graphql/zod-args.js';
import { FIELD_TYPES, archiveDefinition, createDefinition, listDefinitions, updateDefinition } from './definitions.service.js';
import { approveProposal, proposalQueue, proposeValue, rejectProposal } from './service.js';
import { DEFAULT_LOCALE, PERMISSION, entityTypeSchema, fieldNameSchema, localeSchema } from '../shared.js';
import { CatalogCustomFieldProposalRef, CatalogCustomFieldRef, CatalogFieldDefinitionRef } from '../types.js';

const admin = { permission: PERMISSION.update } as const;
const enumValues = z.array(z.string().min(1).max(200)).max(500).describe('Allowed values; required for (and only for) type enum');

defineOperation({
  name: 'catalogFieldDefinitions',
  kind: 'query',
  summary: 'List custom-field definitions',
  description: 'Optionally of one entity type. Archived definitions are left out unless includeArchived=true.',
  rest: { method: 'GET', path: '/admin/entity-field-definitions' },
  tag: 'catalog',
  access: admin,
  input: { entityType: entityTypeSchema.optional(), includeArchived: z.boolean().default(false) },
  output: [CatalogFieldDefinitionRef],
  resolve: (ctx, input) => listDefinitions(ctx, input),
});

defineOperation({
  name: 'catalogFieldDefinitionCreate',
  kind: 'mutation',
  summary: 'Define a custom field for an entity type',
  description:
    'Body: entityType, name (unique per organization and entity type, archived ones included; a duplicate is 409), ' +
    'type (string, number, boolean, date as ISO 8601, enum with enumValues, json), required (entities created afterwards ' +
    'must carry it; it cannot be cleared), filterable (indexed by search), label, description.',
  rest: { method: 'POST', path: '/admin/entity-field-definitions', status: 201 },
  tag: 'catalog',
  access: admin,
  input: {
    entityType: entityTypeSchema,
    name: fieldNameSchema,
    type: z.enum(FIELD_TYPES),
    enumValues: enumValues.optional(),
    required: z.boolean().default(false),
    filterable: z.boolean().default(false),
    label: z.string().max(200).optional(),
    description: z.string().max(2000).optional(),
  },
  output: CatalogFieldDefinitionRef,
  resolve: (ctx, input) => createDefinition(ctx, input),
});

defineOperation({
  name: 'catalogFieldDefinitionUpdate',
  kind: 'mutation',
  summary: 'Update a custom-field definition',
  description: 'label, description, required, filterable and (for enum fields) enumValues; the entity type, name and value type are fixed.',
  rest: { method: 'PATCH', path: '/admin/entity-field-definitions/:id' },
  tag: 'catalog',
  access: admin,
  input: {
    id: z.guid(),
    label: z.string().max(200).nullable().optional(),
    description: z.string().max(2000).nullable().optional(),
    enumValues: enumValues.optional(),
    required: z.boolean().optional(),
    filterable: z.boolean().optional(),
  },
  output: CatalogFieldDefinitionRef,
  resolve: (ctx, { id, ...input }) => updateDefinition(ctx, id, input),
});

defineOperation({
  name: 'catalogFieldDefinitionArchive',
  kind: 'mutation',
  summary: 'Archive a custom-field definition',
  description: 'Definitions are never deleted: an archived field keeps its values and takes no new ones. Archiving twice changes nothing.',
  rest: { method: 'POST', path: '/admin/entity-field-definitions/:id/archive' },
  tag: 'catalog',
  access: admin,
  input: { id: z.guid() },
  output: CatalogFieldDefinitionRef,
  resolve: (ctx, input) => archiveDefinition(ctx, input.id),
});

defineOperation({
  name: 'catalogCustomFieldProposals',
  kind: 'query',
  summary: 'The organization queue of proposed custom-field values',
  description: 'Pending proposals, oldest first; each item is the full custom-field row plus entitySlug and entityType.',
  rest: { method: 'GET', path: '/admin/custom-field-proposals' },
  tag: 'catalog',
  access: admin,
  input: { entityType: entityTypeSchema.optional(), ...pageInput(20, 100) },
  output: pageOf('CatalogCustomFieldProposal', CatalogCustomFieldProposalRef),
  paginated: true,
  resolve: (ctx, input) => proposalQueue(ctx, input),
});

const entityId = z.guid().describe('Entity UUID');
const locale = localeSchema.default(DEFAULT_LOCALE).describe('Locale of the value, default en');

defineOperation({
  name: 'catalogCustomFieldPropose',
  kind: 'mutation',
  summary: 'Propose a custom-field value',
  description:
    'Body: value (validated against the field definition now and again on approval), locale (default en), source (free text naming ' +
    'who or what proposes: store, import, ai...; default api), sourceStoreId, note. The proposal waits in /admin/custom-field-proposals ' +
    'until approve or reject; the live value is unchanged until then. Needs catalog:update or catalog:sync (a sync connector may ' +
    'propose but approving also needs catalog:update).',
  rest: { method: 'POST', path: '/catalog/entities/:id/custom-fields/:fieldName/proposals', status: 201 },
  access: { anyPermission: [PERMISSION.update, PERMISSION.sync] },
  input: {
    id: entityId,
    fieldName: fieldNameSchema,
    value: z
      .unknown()
      .refine((v) => v !== undefined && v !== null, 'is required (a value, not null)')
      .describe('The proposed value'),
    locale,
    source: z.string().min(1).max(64).default('api'),
    sourceStoreId: z.string().min(1).max(128).optional(),
    note: z.string().max(2000).optional(),
  },
  output: CatalogCustomFieldRef,
  resolve: (ctx, { id, fieldName, ...input }) => proposeValue(ctx, id, fieldName, input),
});

defineOperation({
  name: 'catalogCustomFieldApprove',
  kind: 'mutation',
  summary: 'Approve the newest proposal of a custom field',
  description:
    'The newest pending proposal of the field and locale (query `locale`, default en) becomes the live value, displacing the ' +
    'previous one in the same transaction; older pending proposals of that field and locale are retired. 404 when none is pending. ' +
    'Store-sourced entities also need catalog:sync. Emits catalog.update.',
  rest: { method: 'POST', path: '/catalog/entities/:id/custom-fields/:fieldName/approve' },
  access: { permission: PERMISSION.update },
  input: { id: entityId, fieldName: fieldNameSchema, locale },
  output: CatalogCustomFieldRef,
  resolve: (ctx, input) => approveProposal(ctx, input.id, input.fieldName, input.locale),
});

defineOperation({
  name: 'catalogCustomFieldReject',
  kind: 'mutation',
  summary: 'Reject the newest proposal of a custom field',
  description: 'Marks the newest pending proposal of the field and locale (default en) rejected; the live value is untouched. Same permissions as approve.',
  rest: { method: 'POST', path: '/catalog/entities/:id/custom-fields/:fieldName/reject' },
  access: { permission: PERMISSION.update },
  input: { id: entityId, fieldName: fieldNameSchema, locale },
  output: CatalogCustomFieldRef,
  resolve: (ctx, input) => rejectProposal(ctx, input.id, input.fieldName, input.locale),
});
