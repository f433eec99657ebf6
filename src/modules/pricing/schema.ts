// Pricing operations: prices (create, list, update, delete), price modifiers (create, list,
// update) and the resolver (GET /pricing/resolve). Also the catalog embed `include=pricing`.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { embedField } from '../../graphql/cost.js';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { money, pageInput } from '../../graphql/zod-args.js';
import { notFound } from '../../errors.js';
import { CatalogEntityRef, includedValue } from '../catalog/index.js';
import { createModifier, findModifier, listModifiers, updateModifier, type ModifierView } from './modifiers.service.js';
import { createPrice, deletePrice, findPrice, listPrices, pricePayload, updatePrice, type PriceView } from './prices.service.js';
import { resolvePrice, type ResolvedPrice } from './resolver.js';
import { PRICING, currencySchema, customerGroupIdSchema, parseGroupList } from './shared.js';
import { assertMayResolveGroups } from './groups.js';
import { PRICING_INCLUDE } from './include.js';
import { defineEnum } from '../../graphql/enums.js';
const PriceModifierTypeEnum = defineEnum('PriceModifierType', ['percentage', 'fixed'] as const, 'How a price modifier discounts.');

export const PriceRef = builder.objectRef<PriceView>('Price').implement({
  description: 'The amount of an entity (or one of its variants) in one currency, for everyone or for one customer group.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true, description: 'Null for the entity-level price' }),
    currency: t.exposeString('currency', { description: 'ISO 4217 code' }),
    amount: t.expose('amount', { type: 'MinorUnits', description: 'Integer minor units of the currency' }),
    customerGroupId: t.exposeString('customerGroupId', { nullable: true, description: 'Null: the price for everyone' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const PriceModifierRef = builder.objectRef<ModifierView>('PriceModifier').implement({
  description:
    'A discount off the base price: `percentage` (value = percent off, e.g. 12.5) or `fixed` (value = minor units off, in currency). ' +
    'Scoped to an entity, a category, a customer group, or any combination (all must match; none = every price); ' +
    'applies from minQuantity units, inside [validFrom, validUntil). The resolver applies the single best modifier; they do not stack. ' +
    'Rounding: the discount is rounded half up to the minor unit; a price never goes below 0.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    name: t.exposeString('name'),
    type: t.expose('type', { type: PriceModifierTypeEnum, description: 'percentage: value in basis points; fixed: minor units' }),
    value: t.exposeFloat('value', { description: 'Percent off (percentage) or minor units off (fixed)' }),
    currency: t.exposeString('currency', { nullable: true }),
    entityId: t.expose('entityId', { type: 'UUID', nullable: true }),
    categoryId: t.expose('categoryId', { type: 'UUID', nullable: true }),
    customerGroupId: t.exposeString('customerGroupId', { nullable: true }),
    minQuantity: t.exposeInt('minQuantity'),
    validFrom: t.expose('validFrom', { type: 'DateTime', nullable: true }),
    validUntil: t.expose('validUntil', { type: 'DateTime', nullable: true }),
    isActive: t.exposeBoolean('isActive'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const ResolvedPriceRef = builder.objectRef<ResolvedPrice>('ResolvedPrice').implement({
  description: 'The best price for a customer: base price (lowest open to them), minus the best modifier, times quantity.',
  fields: (t) => ({
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    currency: t.exposeString('currency'),
    quantity: t.exposeInt('quantity'),
    priceId: t.expose('priceId', { type: 'UUID', description: 'The base price used' }),
    customerGroupId: t.exposeString('customerGroupId', { nullable: true, description: 'Group of the base price used; null = the public price' }),
    baseAmount: t.expose('baseAmount', { type: 'MinorUnits' }),
    modifierId: t.expose('modifierId', { type: 'UUID', nullable: true, description: 'The modifier applied, if any' }),
    discountAmount: t.expose('discountAmount', { type: 'MinorUnits', description: 'Per unit' }),
    unitAmount: t.expose('unitAmount', { type: 'MinorUnits' }),
    totalAmount: t.expose('totalAmount', { type: 'MinorUnits', description: 'unitAmount × quantity' }),
  }),
});

builder.objectField(CatalogEntityRef, 'pricing', (t) =>
  t.field({
    extensions: embedField('pricing'),
    type: [PriceRef],
    nullable: true,
    description: `Resolved when selected (over REST: embed \`include=pricing\`): ${PRICING_INCLUDE.description}. Over REST null unless asked for.`,
    resolve: (entity, _args, ctx) => includedValue<PriceView[]>(entity, 'pricing', ctx),
  }),
);

const id = z.guid();
const entityId = z.guid().describe('Catalog entity UUID');
const variantId = z.guid().describe('Variant UUID (of that entity)');
const amount = money().describe('Non-negative integer minor units; a fraction is 422');

async function priceBefore(ctx: Parameters<typeof findPrice>[0], priceId: string) {
  const found = await findPrice(ctx, priceId);
  if (!found) throw notFound('Price');
  return pricePayload(found);
}

defineOperation({
  name: 'priceCreate',
  kind: 'mutation',
  summary: 'Create a price',
  description:
    'One price per entity, variant (or none), currency and customer group (or none): creating one that exists is 409 with ' +
    '`details.priceId`; change its amount with PATCH /pricing/prices/:id. Emits pricing.create.',
  rest: { method: 'POST', path: '/pricing/prices', status: 201 },
  access: PRICING.create,
  input: { entityId, variantId: variantId.nullable().optional(), currency: currencySchema, amount, customerGroupId: customerGroupIdSchema.nullable().optional() },
  output: PriceRef,
  resolve: (ctx, input) => createPrice(ctx, input),
  audit: { event: 'pricing.create', entityType: 'price', after: (price) => pricePayload(price) },
});

defineOperation({
  name: 'prices',
  kind: 'query',
  summary: 'List prices',
  description: 'Filters: entityId, variantId, currency, customerGroupId. Oldest first.',
  rest: { method: 'GET', path: '/pricing/prices' },
  access: PRICING.lists,
  input: {
    entityId: entityId.optional(),
    variantId: variantId.optional(),
    currency: currencySchema.optional(),
    customerGroupId: customerGroupIdSchema.optional(),
    ...pageInput(20, 100),
  },
  output: pageOf('Price', PriceRef),
  paginated: true,
  resolve: (ctx, input) => listPrices(ctx, input),
});

defineOperation({
  name: 'priceUpdate',
  kind: 'mutation',
  summary: 'Change the amount of a price',
  description: 'Emits pricing.update (with the previous amount) when the amount changes.',
  rest: { method: 'PATCH', path: '/pricing/prices/:id' },
  access: PRICING.update,
  input: { id, amount },
  output: PriceRef,
  resolve: (ctx, input) => updatePrice(ctx, input.id, input.amount),
  audit: { event: 'pricing.update', entityType: 'price', before: (ctx, input) => priceBefore(ctx, input.id), after: (price) => pricePayload(price) },
});

defineOperation({
  name: 'priceDelete',
  kind: 'mutation',
  summary: 'Delete a price',
  description: 'Emits pricing.update with `deleted: true` (the spec has no pricing.delete event).',
  rest: { method: 'DELETE', path: '/pricing/prices/:id' },
  access: PRICING.update,
  input: { id },
  output: PriceRef,
  resolve: (ctx, input) => deletePrice(ctx, input.id),
  audit: { event: 'pricing.delete', entityType: 'price', before: (ctx, input) => priceBefore(ctx, input.id), after: false },
});

const modifierType = z.enum(['percentage', 'fixed']);
const modifierValue = z.number().positive().describe('percentage: percent off, above 0 and at most 100 (two decimals); fixed: minor units off, a positive integer');
const minQuantity = z.number().int().min(1).max(1_000_000).describe('Applies from this many units, default 1');
const validFrom = z.coerce.date().nullable().optional().describe('ISO 8601; unset = already valid');
const validUntil = z.coerce.date().nullable().optional().describe('ISO 8601, exclusive; unset = no end');

defineOperation({
  name: 'priceModifierCreate',
  kind: 'mutation',
  summary: 'Create a price modifier',
  description: 'See the PriceModifier type for the rules. A fixed amount needs `currency`. An unknown entityId or categoryId is 404.',
  rest: { method: 'POST', path: '/pricing/modifiers', status: 201 },
  access: PRICING.create,
  input: {
    name: z.string().min(1).max(200),
    type: modifierType.describe('percentage or fixed'),
    value: modifierValue,
    currency: currencySchema.nullable().optional(),
    entityId: entityId.nullable().optional(),
    categoryId: z.guid().nullable().optional().describe('Category UUID: entities directly in it'),
    customerGroupId: customerGroupIdSchema.nullable().optional(),
    minQuantity: minQuantity.optional(),
    validFrom,
    validUntil,
    isActive: z.boolean().optional(),
  },
  output: PriceModifierRef,
  resolve: (ctx, input) => createModifier(ctx, input),
  audit: { event: 'pricing.modifierCreate', entityType: 'price_modifier' },
});

defineOperation({
  name: 'priceModifiers',
  kind: 'query',
  summary: 'List price modifiers',
  description: 'Filters: entityId, categoryId, customerGroupId; `current=true` keeps those in effect now.',
  rest: { method: 'GET', path: '/pricing/modifiers' },
  access: PRICING.lists,
  input: {
    entityId: entityId.optional(),
    categoryId: z.guid().optional(),
    customerGroupId: customerGroupIdSchema.optional(),
    current: z.boolean().optional(),
    ...pageInput(20, 100),
  },
  output: pageOf('PriceModifier', PriceModifierRef),
  paginated: true,
  resolve: (ctx, input) => listModifiers(ctx, input),
});

defineOperation({
  name: 'priceModifierUpdate',
  kind: 'mutation',
  summary: 'Update a price modifier',
  description: 'Name, value, minQuantity, validity window and isActive; the scope and type are fixed once created.',
  rest: { method: 'PATCH', path: '/pricing/modifiers/:id' },
  access: PRICING.update,
  input: {
    id,
    name: z.string().min(1).max(200).optional(),
    value: modifierValue.optional(),
    minQuantity: minQuantity.optional(),
    validFrom,
    validUntil,
    isActive: z.boolean().optional(),
  },
  output: PriceModifierRef,
  resolve: (ctx, { id: modifierId, ...patch }) => updateModifier(ctx, modifierId, patch),
  audit: {
    event: 'pricing.modifierUpdate',
    entityType: 'price_modifier',
    before: async (ctx, input) => (await findModifier(ctx, input.id)) ?? Promise.reject(notFound('Price modifier')),
  },
});

defineOperation({
  name: 'resolvedPrice',
  kind: 'query',
  summary: 'The best price of an entity or variant for a customer',
  description:
    "The price the cart and checkout use: base price (the variant's own if any, else the entity's; the lowest open to the " +
    "customer's groups), less the best current price modifier, times quantity. 404 when there is no price in the currency. " +
    'Without a pricing permission a caller names only their own customer groups (another is 403 FORBIDDEN).',
  rest: { method: 'GET', path: '/pricing/resolve' },
  access: { anyPermission: ['pricing:read', 'pricing:update', 'pricing:manage', 'catalog:read'] },
  input: {
    entityId,
    variantId: variantId.optional(),
    currency: currencySchema,
    customerGroupIds: z.string().max(2000).optional().describe('Comma-separated customer group ids'),
    quantity: z.number().int().min(1).max(1_000_000).default(1),
  },
  refine: (input) =>
    parseGroupList(input.customerGroupIds).flatMap((group, index) =>
      customerGroupIdSchema.safeParse(group).success ? [] : [{ field: `customerGroupIds.${index}`, message: 'not a valid customer group id' }],
    ),
  output: ResolvedPriceRef,
  resolve: async (ctx, input) => {
    const groups = parseGroupList(input.customerGroupIds);
    await assertMayResolveGroups(ctx, groups);
    const resolved = await resolvePrice(ctx, { ...input, customerGroupIds: groups });
    if (!resolved) throw notFound(`Price in ${input.currency} for this entity`);
    return resolved;
  },
});
