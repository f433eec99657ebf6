// Option types, option values and variants.
import { z } from 'zod';
import { defineOperation } from '../../../graphql/operation.js';
import {
  MAX_AXES,
  MAX_MATRIX,
  MAX_VALUES_PER_AXIS,
  bulkVariants,
  createOptionType,
  createOptionValue,
  createVariant,
  deleteVariant,
  generateVariants,
  quickVariant,
  updateVariant,
  VARIANT_STATUSES,
} from './service.js';
import { reorderOptionValues, updateOptionType, updateOptionValue } from './options.js';
import { PERMISSION, jsonObject } from '../shared.js';
import { CatalogOptionTypeRef, CatalogOptionValueRef, CatalogVariantMatrixRef, CatalogVariantRef } from '../types.js';

const id = z.guid().describe('Entity UUID');
const axisName = z.string().min(1).max(64);
const optionValue = z.string().min(1).max(200);
const sku = z.string().trim().min(1).max(100).describe('Stock keeping unit, unique per organization; generated from the entity slug and option values when omitted');
const variantStatus = z.enum(VARIANT_STATUSES).describe('active (sold), draft or archived: only active variants are sold and shown to storefront readers');
const variantFields = {
  title: z.string().max(500).optional().describe('Defaults to the option values joined by " / "'),
  status: variantStatus.optional(),
  taxClassId: z.guid().nullable().optional().describe("Tax class of this variant; wins over the entity's"),
  metadata: jsonObject.optional(),
};
/** Weights and dimensions: whole grams or millimetres, up to 10 t / 10 km; null clears. */
const shippingMeasure = z.number().int().nonnegative().max(10_000_000).nullable().optional();
const skuPrefix = z.string().min(1).max(60).optional().describe('Prefix of generated SKUs, default the entity slug (BLUE-TEE-RED-L)');

/** REST status for calls that may create or find: 201 when something was created, 200 otherwise. */
function created<T>(ctx: { rest: { status?: number } }, result: T, didCreate: boolean): T {
  ctx.rest.status = didCreate ? 201 : 200;
  return result;
}

defineOperation({
  name: 'catalogOptionTypeCreate',
  kind: 'mutation',
  summary: 'Create an option type (axis) on an entity',
  description: 'Body: name (unique per entity; a duplicate is 409), optional label, sortOrder, and values to create with it. Emits catalog.update (changes: optionTypes).',
  rest: { method: 'POST', path: '/catalog/entities/:id/options', status: 201 },
  access: { permission: PERMISSION.update },
  input: {
    id,
    name: axisName.describe('Axis name, e.g. size or color'),
    label: z.string().max(200).optional(),
    sortOrder: z.number().int().min(0).max(10_000).optional().describe("Position among the entity's axes; default last"),
    values: z.array(optionValue).max(MAX_VALUES_PER_AXIS).optional().describe('Values to create with the axis, in display order'),
  },
  output: CatalogOptionTypeRef,
  resolve: (ctx, { id: entityId, ...input }) => createOptionType(ctx, entityId, input),
});

defineOperation({
  name: 'catalogOptionValueCreate',
  kind: 'mutation',
  summary: 'Create a value of an option type',
  description: 'Body: value (unique per option type; a duplicate is 409), optional label and sortOrder. Emits catalog.update for the entity.',
  rest: { method: 'POST', path: '/catalog/options/:optionTypeId/values', status: 201 },
  access: { permission: PERMISSION.update },
  input: {
    optionTypeId: z.guid(),
    value: optionValue,
    label: z.string().max(200).optional(),
    sortOrder: z.number().int().min(0).max(10_000).optional().describe('Position among the values; default last'),
  },
  output: CatalogOptionValueRef,
  resolve: (ctx, { optionTypeId, ...input }) => createOptionValue(ctx, optionTypeId, input),
});

defineOperation({
  name: 'catalogOptionTypeUpdate',
  kind: 'mutation',
  summary: 'Rename, relabel or move an option type',
  description:
    'Only the keys sent change: name (unique per entity; a duplicate is 409), label (null clears it), sortOrder. Variants keep their values; ' +
    'their `options` are keyed by the new name at once. Emits catalog.update (changes: optionTypes, and variants on a rename).',
  rest: { method: 'PATCH', path: '/catalog/options/:optionTypeId' },
  access: { permission: PERMISSION.update },
  input: {
    optionTypeId: z.guid(),
    name: axisName.optional().describe('New axis name, unique per entity'),
    label: z.string().max(200).nullable().optional(),
    sortOrder: z.number().int().min(0).max(10_000).optional().describe("Position among the entity's axes"),
  },
  output: CatalogOptionTypeRef,
  resolve: (ctx, { optionTypeId, ...input }) => updateOptionType(ctx, optionTypeId, input),
});

defineOperation({
  name: 'catalogOptionValueUpdate',
  kind: 'mutation',
  summary: 'Rename or relabel an option value',
  description:
    'Only the keys sent change: value (unique per option type; a duplicate is 409), label (null clears it). Variants that use the value ' +
    'show the new one at once; their stored SKU and title stay as they are. Emits catalog.update for the entity.',
  rest: { method: 'PATCH', path: '/catalog/option-values/:optionValueId' },
  access: { permission: PERMISSION.update },
  input: { optionValueId: z.guid(), value: optionValue.optional().describe('New value, unique per option type'), label: z.string().max(200).nullable().optional() },
  output: CatalogOptionValueRef,
  resolve: (ctx, { optionValueId, ...input }) => updateOptionValue(ctx, optionValueId, input),
});

defineOperation({
  name: 'catalogOptionValuesReorder',
  kind: 'mutation',
  summary: 'Reorder the values of an option type',
  description:
    'Body `{ valueIds: [...] }`: every value of the option type exactly once, in the new display order (a missing, unknown or repeated id ' +
    'is 422). Variants list in the new order too. Answers the option type with its values. Emits catalog.update for the entity.',
  rest: { method: 'PUT', path: '/catalog/options/:optionTypeId/values/order' },
  access: { permission: PERMISSION.update },
  input: { optionTypeId: z.guid(), valueIds: z.array(z.guid()).min(1).max(MAX_VALUES_PER_AXIS).describe('Every value id of the option type, in display order') },
  output: CatalogOptionTypeRef,
  resolve: (ctx, { optionTypeId, valueIds }) => reorderOptionValues(ctx, optionTypeId, valueIds),
});

defineOperation({
  name: 'catalogVariantCreate',
  kind: 'mutation',
  summary: 'Create one variant',
  description:
    'Pick its option values either by id (`optionValueIds`) or by name (`options`: { "size": "L" }); they must exist on the entity, ' +
    "at most one per option type. No values makes the entity's default variant. A duplicate SKU or an existing combination is 409. " +
    'Emits catalog.update (changes: variants).',
  rest: { method: 'POST', path: '/catalog/entities/:id/variants', status: 201 },
  access: { permission: PERMISSION.update },
  input: {
    id,
    sku: sku.optional(),
    optionValueIds: z.array(z.guid()).max(MAX_AXES).optional().describe('Option value ids, one per option type'),
    options: z.record(axisName, optionValue).optional().describe('Option values by axis name: { "size": "L", "color": "red" }'),
    ...variantFields,
  },
  refine: (input) => (input.optionValueIds && input.options ? [{ field: 'options', message: 'give optionValueIds or options, not both' }] : []),
  output: CatalogVariantRef,
  resolve: (ctx, { id: entityId, ...input }) => createVariant(ctx, entityId, input),
});

defineOperation({
  name: 'catalogVariantsGenerate',
  kind: 'mutation',
  summary: 'Generate variants from the option matrix',
  description:
    `Creates a variant for every combination of the values of the given option types (default: all of the entity's), skipping ` +
    `combinations that exist; at most ${MAX_MATRIX} combinations. SKUs are generated (skuPrefix, default the slug). ` +
    'Answers 201 when it created variants, 200 when all existed, with both lists.',
  rest: { method: 'POST', path: '/catalog/entities/:id/variants/generate', status: 201, otherStatuses: [200] },
  access: { permission: PERMISSION.update },
  input: { id, optionTypeIds: z.array(z.guid()).max(MAX_AXES).optional().describe('Axes to combine; default all'), skuPrefix },
  output: CatalogVariantMatrixRef,
  resolve: async (ctx, { id: entityId, ...input }) => {
    const matrix = await generateVariants(ctx, entityId, input);
    return created(ctx, matrix, matrix.created.length > 0);
  },
});

defineOperation({
  name: 'catalogVariantQuickCreate',
  kind: 'mutation',
  summary: 'Find or create one variant, creating its option axes and values inline',
  description:
    'Body `{ options: { <axis>: <value>, ... }, sku? }`: missing option types and values are created, then the variant with exactly ' +
    'that combination is returned (200) or created (201) with zero stock seeded by the inventory module when it is installed. ' +
    "A given sku that differs from the existing variant's is 409. Concurrent calls for one combination create it once.",
  rest: { method: 'POST', path: '/catalog/entities/:id/variants/quick', status: 201, otherStatuses: [200] },
  access: { permission: PERMISSION.update },
  input: {
    id,
    options: z
      .record(axisName, optionValue)
      .refine((o) => Object.keys(o).length <= MAX_AXES, `at most ${MAX_AXES} axes`)
      .describe('Option values by axis name'),
    sku: sku.optional(),
    ...variantFields,
  },
  output: CatalogVariantRef,
  resolve: async (ctx, { id: entityId, ...input }) => {
    const result = await quickVariant(ctx, entityId, input);
    return created(ctx, result.variant, result.created);
  },
});

defineOperation({
  name: 'catalogVariantsBulkCreate',
  kind: 'mutation',
  summary: 'Create the full cartesian matrix of variants from axes',
  description:
    `Body \`{ axes: { <axis>: [values...] }, skuPrefix? }\`: creates missing option types and values, then every combination that does ` +
    `not exist yet (at most ${MAX_AXES} axes, ${MAX_VALUES_PER_AXIS} values per axis, ${MAX_MATRIX} combinations). ` +
    'Answers 201 when it created variants, 200 when all existed, with both lists.',
  rest: { method: 'POST', path: '/catalog/entities/:id/variants/bulk', status: 201, otherStatuses: [200] },
  access: { permission: PERMISSION.update },
  input: { id, axes: z.record(axisName, z.array(optionValue)).describe('Values per axis name: { "size": ["S","M"], "color": ["red"] }'), skuPrefix },
  output: CatalogVariantMatrixRef,
  resolve: async (ctx, { id: entityId, ...input }) => {
    const matrix = await bulkVariants(ctx, entityId, input);
    return created(ctx, matrix, matrix.created.length > 0);
  },
});

defineOperation({
  name: 'catalogVariantUpdate',
  kind: 'mutation',
  summary: 'Update a variant',
  description:
    'Only the keys sent change: sku (unique per organization; a duplicate is 409), title, status (active, draft or archived; only active ' +
    'variants are sold and listed to storefront readers), taxClassId (null clears it), metadata, ' +
    'weightGrams and lengthMm/widthMm/heightMm (shipping; null clears). ' +
    'Its option values are its identity and do not change. Emits catalog.update (changes: variants) for its entity.',
  rest: { method: 'PATCH', path: '/catalog/variants/:variantId' },
  access: { permission: PERMISSION.update },
  input: {
    variantId: z.guid(),
    sku: sku.optional(),
    title: z.string().max(500).nullable().optional(),
    status: variantStatus.optional(),
    taxClassId: variantFields.taxClassId,
    metadata: variantFields.metadata,
    weightGrams: shippingMeasure.describe('Shipping weight in grams'),
    lengthMm: shippingMeasure.describe('Package length in millimetres'),
    widthMm: shippingMeasure.describe('Package width in millimetres'),
    heightMm: shippingMeasure.describe('Package height in millimetres'),
  },
  output: CatalogVariantRef,
  resolve: (ctx, { variantId, ...input }) => updateVariant(ctx, variantId, input),
});

defineOperation({
  name: 'catalogVariantDelete',
  kind: 'mutation',
  summary: 'Delete a variant',
  description: 'Answers the deleted variant. Emits catalog.update (changes: variants) for its entity.',
  rest: { method: 'DELETE', path: '/catalog/variants/:variantId' },
  access: { permission: PERMISSION.update },
  input: { variantId: z.guid() },
  output: CatalogVariantRef,
  resolve: (ctx, input) => deleteVariant(ctx, input.variantId),
});
