// Draft order operations (issue 27). Permission drafts:manage (staff and admins): a draft sets
// its own prices, so orders:create — which storefronts and shoppers hold to check out — is not
// enough. State table: service.ts.
import { z } from 'zod';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { money, pageInput, withGraphqlInput } from '../../graphql/zod-args.js';
import { address } from '../checkout/schema.js';
import { OrderRef } from '../orders/types.js';
import { completeDraft } from './complete.js';
import { createDraft, deleteDraft, DRAFT_NOTE_MAX, DRAFT_REASON_MAX, getDraft, listDrafts, updateDraft } from './service.js';
import { DraftOrderRef } from './types.js';
import type { DraftView } from './views.js';

const PERMISSION = 'drafts:manage';
const line = withGraphqlInput(
  z
    .object({
      entityId: z.guid(),
      variantId: z.guid().optional(),
      quantity: z.number().int().positive().max(10_000),
      unitPrice: money().optional().describe("A custom unit price, minor units (needs priceReason); default the price list's price at completion"),
      priceReason: z.string().min(1).max(DRAFT_REASON_MAX).optional().describe('Why the custom unitPrice (required with it)'),
    })
    .strict()
    .describe('A draft line'),
  'DraftOrderLineInput',
);
const discount = withGraphqlInput(
  z
    .object({ amount: money(), reason: z.string().max(DRAFT_REASON_MAX).optional() })
    .strict()
    .describe('A manual discount, minor units'),
  'DraftOrderDiscountInput',
);
const fields = {
  customerId: z.guid().optional().describe("The customer (their account's user id)"),
  email: z.email().max(254).optional().describe('A guest email, when there is no customerId'),
  discount: discount.optional(),
  shippingAddress: address.optional(),
  shippingMethodId: z.guid().optional(),
  note: z.string().max(DRAFT_NOTE_MAX).optional(),
};
const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD');
const audit = { entityType: 'draft_order', entityId: (_input: unknown, draft: unknown) => (draft as DraftView).id };
const moves = 'open → completed (POST /draft-orders/:id/complete); PATCH and DELETE only while open. A completed draft is 409 (details.reason INVALID_TRANSITION).';

defineOperation({
  name: 'draftOrderCreate',
  kind: 'mutation',
  summary: 'Create a draft order for a customer or a guest email',
  description: `Lines may carry a custom unitPrice with a priceReason (422 without one). Nothing is reserved or charged until completion. ${moves}`,
  rest: { method: 'POST', path: '/draft-orders', status: 201 },
  access: { permission: PERMISSION },
  input: { currency, lines: z.array(line).min(1).max(200).describe('The lines, in order'), ...fields },
  output: DraftOrderRef,
  resolve: (ctx, input) => createDraft(ctx, input),
  audit: { event: 'drafts.create', ...audit },
});

defineOperation({
  name: 'draftOrders',
  kind: 'query',
  summary: 'List draft orders, newest first',
  rest: { method: 'GET', path: '/draft-orders' },
  access: { permission: PERMISSION },
  input: { status: z.enum(['open', 'completed']).optional().describe('open or completed; default both'), ...pageInput(20, 100) },
  output: pageOf('DraftOrder', DraftOrderRef),
  paginated: true,
  resolve: (ctx, input) => listDrafts(ctx, input),
});

defineOperation({
  name: 'draftOrder',
  kind: 'query',
  summary: 'Get one draft order',
  rest: { method: 'GET', path: '/draft-orders/:id' },
  access: { permission: PERMISSION },
  input: { id: z.guid() },
  output: DraftOrderRef,
  resolve: (ctx, input) => getDraft(ctx, input.id),
});

defineOperation({
  name: 'draftOrderUpdate',
  kind: 'mutation',
  summary: 'Change an open draft order',
  description: `Replaces the fields given (lines as a whole). ${moves}`,
  rest: { method: 'PATCH', path: '/draft-orders/:id' },
  access: { permission: PERMISSION },
  input: { id: z.guid(), currency: currency.optional(), lines: z.array(line).min(1).max(200).optional().describe('Replaces every line'), ...fields },
  output: DraftOrderRef,
  resolve: (ctx, input) => updateDraft(ctx, input.id, input),
  audit: { event: 'drafts.update', ...audit },
});

defineOperation({
  name: 'draftOrderDelete',
  kind: 'mutation',
  summary: 'Delete an open draft order; answers the deleted draft',
  description: moves,
  rest: { method: 'DELETE', path: '/draft-orders/:id' },
  access: { permission: PERMISSION },
  input: { id: z.guid() },
  output: DraftOrderRef,
  resolve: (ctx, input) => deleteDraft(ctx, input.id),
  audit: { event: 'drafts.delete', ...audit },
});

defineOperation({
  name: 'draftOrderComplete',
  kind: 'mutation',
  summary: 'Turn an open draft into a real order',
  description:
    "Prices the draft through checkout's path (custom unit prices and the manual discount as given, other lines at today's prices, shipping and tax " +
    'recomputed), reserves the stock (409 when it is missing) and writes the order as checkout does (ORD- number, orders.create). With ' +
    'paymentPending: true (invoice terms) nothing is charged and the order stays pending, awaiting payment; otherwise paymentMethodId is authorized ' +
    "through the configured payment provider exactly as at checkout (settings payments.capture; a payment record; the provider's event confirms the " +
    `order) — a decline is 422 naming it, an unreachable provider 503. ${moves}`,
  rest: { method: 'POST', path: '/draft-orders/:id/complete', status: 201 },
  access: { permission: PERMISSION },
  input: {
    id: z.guid(),
    paymentPending: z.boolean().optional().describe('Invoice terms: charge nothing, the order stays pending awaiting payment'),
    paymentMethodId: z.string().min(1).max(255).optional().describe('Payment method id of the provider; required unless paymentPending'),
  },
  output: OrderRef,
  resolve: (ctx, input) => completeDraft(ctx, input.id, input),
  audit: { event: 'drafts.complete', entityType: 'draft_order', entityId: (input) => input.id },
});
