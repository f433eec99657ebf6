// Promotion operations: POST /promotions, GET /promotions, GET /promotions/:id,
// PATCH /promotions/:id, POST /promotions/:id/deactivate, POST /promotions/validate.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { money, pageInput, withGraphqlInput } from '../../graphql/zod-args.js';
import { notFound } from '../../errors.js';
import { currencySchema, customerGroupIdSchema } from '../pricing/shared.js';
import type { LineDiscount } from './evaluate.js';
import { PROMOTION_TYPES } from './rules.js';
import {
  createPromotion,
  deactivatePromotion,
  findPromotion,
  listPromotions,
  promotionPayload,
  updatePromotion,
  validatePromotion,
  type PromotionView,
  type ValidationResult,
} from './service.js';
import { defineEnum } from '../../graphql/enums.js';
const PromotionTypeEnum = defineEnum('PromotionType', PROMOTION_TYPES, 'What a promotion gives.');
const LIST_STATUSES = ['active', 'scheduled', 'expired', 'inactive', 'all'] as const;
// The promotions list's filter (an argument enum: zod-args pairs z.enum(LIST_STATUSES) with it).
defineEnum('PromotionListStatus', LIST_STATUSES, 'Which promotions a list shows, by where they stand in their validity window.', {
  active: 'Active and inside the validity window now',
  scheduled: 'Active, with a validity window that has not started yet',
  expired: 'With a validity window that has ended',
  inactive: 'Switched off (active = false)',
  all: 'Every promotion, whatever its state',
});

const PROMOTIONS = {
  create: { anyPermission: ['promotions:create', 'promotions:manage'] },
  update: { anyPermission: ['promotions:update', 'promotions:manage'] },
  read: { anyPermission: ['promotions:read', 'promotions:create', 'promotions:update', 'promotions:manage'] },
  /** Whoever builds a cart may ask what a code would give it. */
  validate: { anyPermission: ['promotions:read', 'promotions:manage', 'cart:update'] },
} as const;

const TYPES_DOC =
  'Types and what `value` means: percentage_off_order (percent off the subtotal, e.g. 10 or 12.5); fixed_amount_off_order ' +
  '(minor units off the subtotal, in `currency`, never more than the subtotal); percentage_off_item (percent off the totalPrice ' +
  'of each eligible line: entity in entityIds or type in entityTypes, both empty = all lines); free_shipping (value 0; ' +
  'freeShipping is true and the checkout drops the shipping charge); buy_x_get_y (buy buyQuantity eligible units, get ' +
  'getQuantity more at value percent off, 100 = free; units ranked by unit price, highest first, in blocks of buy+get, the ' +
  'cheapest get units of each full block discounted). Percentages are rounded half up to the minor unit.';

export const PromotionRef = builder.objectRef<PromotionView>('Promotion').implement({
  description: `A discount code. ${TYPES_DOC}`,
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    code: t.exposeString('code', { description: 'Unique per organization; matched case-insensitively, stored upper-case' }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    type: t.expose('type', { type: PromotionTypeEnum }),
    value: t.exposeFloat('value', { description: 'See the type description' }),
    currency: t.exposeString('currency', { nullable: true, description: 'Restricts the code to carts in this currency' }),
    validFrom: t.expose('validFrom', { type: 'DateTime' }),
    validUntil: t.expose('validUntil', { type: 'DateTime', nullable: true, description: 'Exclusive; null = no end' }),
    isActive: t.exposeBoolean('isActive'),
    usageLimit: t.exposeInt('usageLimit', { nullable: true, description: 'Total redemptions allowed; null = unlimited' }),
    usageLimitPerCustomer: t.exposeInt('usageLimitPerCustomer', { nullable: true }),
    timesUsed: t.exposeInt('timesUsed', { description: 'Live redemptions' }),
    minSubtotal: t.expose('minSubtotal', { type: 'MinorUnits', nullable: true, description: 'Minimum cart subtotal, in currency' }),
    entityIds: t.field({ type: ['UUID'], resolve: (p) => p.entityIds }),
    entityTypes: t.exposeStringList('entityTypes'),
    customerGroupIds: t.exposeStringList('customerGroupIds', { description: 'Empty = every customer' }),
    buyQuantity: t.exposeInt('buyQuantity', { nullable: true }),
    getQuantity: t.exposeInt('getQuantity', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const LineDiscountRef = builder.objectRef<LineDiscount>('PromotionLineDiscount').implement({
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Position of the line in lineItems, from 0' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    discount: t.expose('discount', { type: 'MinorUnits' }),
  }),
});

export const PromotionValidationRef = builder.objectRef<ValidationResult>('PromotionValidation').implement({
  description: 'What a code would give a cart, or why it gives nothing (`reason`).',
  fields: (t) => ({
    code: t.exposeString('code'),
    valid: t.exposeBoolean('valid'),
    reason: t.exposeString('reason', {
      nullable: true,
      description:
        'Why the code is rejected: NOT_FOUND, INACTIVE, NOT_STARTED, EXPIRED, USAGE_LIMIT_REACHED, CURRENCY_MISMATCH, ' +
        'CUSTOMER_GROUP_NOT_ELIGIBLE, CUSTOMER_REQUIRED, CUSTOMER_LIMIT_REACHED, MIN_SUBTOTAL_NOT_MET, NO_ELIGIBLE_ITEMS',
    }),
    message: t.exposeString('message'),
    promotionId: t.expose('promotionId', { type: 'UUID', nullable: true }),
    type: t.field({ type: PromotionTypeEnum, nullable: true, resolve: (p) => (p.type ?? null) as never }),
    discount: t.expose('discount', { type: 'MinorUnits', description: 'Total discount in minor units of the cart currency' }),
    freeShipping: t.exposeBoolean('freeShipping'),
    lines: t.expose('lines', { type: [LineDiscountRef], description: 'Per-line split for item promotions' }),
  }),
});

const code = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'letters, digits, _ and -')
  .describe('Promotion code, case-insensitive');
const definition = {
  name: z.string().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
  value: z.number().nonnegative().describe('See the Promotion type: percent or minor units by type'),
  currency: currencySchema.nullable().optional(),
  validFrom: z.coerce.date().optional().describe('ISO 8601; default now'),
  validUntil: z.coerce.date().nullable().optional().describe('ISO 8601, exclusive; null = no end'),
  isActive: z.boolean().optional(),
  usageLimit: z.number().int().min(1).nullable().optional().describe('Total redemptions allowed'),
  usageLimitPerCustomer: z.number().int().min(1).nullable().optional(),
  minSubtotal: money().nullable().optional().describe('Minimum subtotal in minor units of currency'),
  entityIds: z.array(z.guid()).max(1000).nullable().optional().describe('Eligible entities for item promotions'),
  entityTypes: z.array(z.string().min(1).max(64)).max(100).nullable().optional().describe('Eligible entity types for item promotions'),
  customerGroupIds: z.array(customerGroupIdSchema).max(100).nullable().optional().describe('Only these groups may use it; empty = everyone'),
  buyQuantity: z.number().int().min(1).max(1000).nullable().optional(),
  getQuantity: z.number().int().min(1).max(1000).nullable().optional(),
};
const type = z.enum(PROMOTION_TYPES);
const id = z.guid().describe('Promotion UUID');

async function promotionBefore(ctx: Parameters<typeof findPromotion>[0], promotionId: string) {
  const found = await findPromotion(ctx, promotionId);
  if (!found) throw notFound('Promotion');
  return promotionPayload(found);
}

defineOperation({
  name: 'promotionCreate',
  kind: 'mutation',
  summary: 'Create a promotion',
  description: `A code that exists (case-insensitively) is 409. ${TYPES_DOC} Emits promotions.create.`,
  rest: { method: 'POST', path: '/promotions', status: 201 },
  access: PROMOTIONS.create,
  input: { code, type, ...definition, value: definition.value.optional() },
  output: PromotionRef,
  resolve: (ctx, input) => createPromotion(ctx, input),
  audit: { event: 'promotions.create', entityType: 'promotion', after: (p) => promotionPayload(p) },
});

defineOperation({
  name: 'promotions',
  kind: 'query',
  summary: 'List promotions: active ones unless `status` says otherwise',
  description: 'status: active (default: active and inside the validity window), scheduled, expired, inactive, all. Newest validFrom first.',
  rest: { method: 'GET', path: '/promotions' },
  access: PROMOTIONS.read,
  input: { status: z.enum(LIST_STATUSES).default('active'), ...pageInput(20, 100) },
  output: pageOf('Promotion', PromotionRef),
  paginated: true,
  resolve: (ctx, input) => listPromotions(ctx, input),
});

defineOperation({
  name: 'promotion',
  kind: 'query',
  summary: 'Get one promotion',
  rest: { method: 'GET', path: '/promotions/:id' },
  access: PROMOTIONS.read,
  input: { id },
  output: PromotionRef,
  resolve: async (ctx, input) => (await findPromotion(ctx, input.id)) ?? Promise.reject(notFound('Promotion')),
});

defineOperation({
  name: 'promotionUpdate',
  kind: 'mutation',
  summary: 'Update a promotion',
  description: 'Only the fields sent change; the result must still satisfy the rules of its type (422 otherwise). A usageLimit below timesUsed is 422. Emits promotions.update.',
  rest: { method: 'PATCH', path: '/promotions/:id' },
  access: PROMOTIONS.update,
  input: {
    id,
    code: code.optional(),
    type: type.optional(),
    ...definition,
    name: definition.name.optional(),
    value: definition.value.optional(),
    validFrom: z.coerce.date().optional().describe('ISO 8601'),
  },
  output: PromotionRef,
  resolve: (ctx, { id: promotionId, ...patch }) => updatePromotion(ctx, promotionId, patch),
  audit: { event: 'promotions.update', entityType: 'promotion', before: (ctx, input) => promotionBefore(ctx, input.id), after: (p) => promotionPayload(p) },
});

defineOperation({
  name: 'promotionDeactivate',
  kind: 'mutation',
  summary: 'Deactivate a promotion',
  description: 'The code stops applying at once. Idempotent. Emits promotions.update when it was active.',
  rest: { method: 'POST', path: '/promotions/:id/deactivate' },
  access: PROMOTIONS.update,
  input: { id },
  output: PromotionRef,
  resolve: (ctx, input) => deactivatePromotion(ctx, input.id),
  audit: { event: 'promotions.deactivate', entityType: 'promotion', before: (ctx, input) => promotionBefore(ctx, input.id), after: (p) => promotionPayload(p) },
});

const lineItem = withGraphqlInput(
  z
    .object({
      entityId: z.guid(),
      entityType: z.string().min(1).max(64),
      quantity: z.number().int().min(1).max(1_000_000),
      unitPrice: money(),
      totalPrice: money(),
    })
    .describe('A cart line as the promotion rules see it'),
  'PromotionLineItemInput',
);

defineOperation({
  name: 'promotionValidation',
  kind: 'query',
  summary: 'What a promotion code would give a cart, or why it is rejected',
  description:
    'Answers 200 with `valid` and, when false, `reason` and `message` (an unknown code is valid: false with reason NOT_FOUND). ' +
    'Reads only: nothing is redeemed. Bad input is 422.',
  rest: { method: 'POST', path: '/promotions/validate' },
  access: PROMOTIONS.validate,
  // Codes are secrets of a kind: each check (each alias) spends the caller's guess budget.
  guessable: true,
  input: {
    code,
    currency: currencySchema,
    subtotal: money().describe('Cart subtotal in minor units'),
    lineItems: z.array(lineItem).max(500).describe('Each { entityId, entityType, quantity, unitPrice, totalPrice }'),
    customerId: z.guid().nullable().optional().describe("The customer (their account's user id, as Customer.id), for per-customer limits and groups"),
    customerGroupIds: z.array(customerGroupIdSchema).max(100).nullable().optional(),
  },
  output: PromotionValidationRef,
  resolve: (ctx, input) => validatePromotion(ctx, input),
});
