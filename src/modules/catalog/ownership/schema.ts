// Field ownership: GET and PUT /catalog/entities/:id/field-ownership.
import { z } from 'zod';
import { defineOperation } from '../../../graphql/operation.js';
import { OWNERS, listOwnership, setOwnership } from './service.js';
import { PERMISSION } from '../shared.js';
import { CatalogFieldOwnershipRef } from '../types.js';

const id = z.guid().describe('Entity UUID');
const storeId = z.string().min(1).max(128);

defineOperation({
  name: 'catalogEntityFieldOwnership',
  kind: 'query',
  summary: 'Field ownership rows of an entity',
  description: 'Optionally only those of one store. Same visibility as the entity.',
  rest: { method: 'GET', path: '/catalog/entities/:id/field-ownership' },
  access: { permission: PERMISSION.read },
  input: { id, storeId: storeId.optional().describe('Only rows of this store') },
  output: [CatalogFieldOwnershipRef],
  resolve: (ctx, input) => listOwnership(ctx, input.id, input.storeId),
});

defineOperation({
  name: 'catalogEntityFieldOwnershipSet',
  kind: 'mutation',
  summary: 'Set who owns a field of an entity',
  description:
    'Body: fieldPath (e.g. attributes.en.title, customFields.material, sku), owner (platform, store or shared), optional storeId and ' +
    'variantId (a variant of this entity). One row per fieldPath, storeId and variantId: setting it again changes the owner. ' +
    'Store-sourced entities also need catalog:sync.',
  rest: { method: 'PUT', path: '/catalog/entities/:id/field-ownership' },
  access: { permission: PERMISSION.update },
  input: {
    id,
    fieldPath: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9_\-.[\]]+$/, 'letters, digits, _, -, ., [ and ] only'),
    owner: z.enum(OWNERS),
    storeId: storeId.nullable().optional(),
    variantId: z.guid().nullable().optional(),
  },
  output: CatalogFieldOwnershipRef,
  resolve: (ctx, { id: entityId, ...input }) => setOwnership(ctx, entityId, input),
});
