// Order edit operations (issue 27): create (with its preview), list, confirm, cancel. Staff only
// (orders:update): a customer cannot edit an order. State table: status.ts.
import { z } from 'zod';
import { defineOperation } from '../../graphql/operation.js';
import { withGraphqlInput } from '../../graphql/zod-args.js';
import { address } from '../checkout/schema.js';
import { giftCardRecipientInput } from '../gift-cards/recipient-input.js';
import { PERMISSION } from '../orders/shared.js';
import { cancelEdit, confirmEdit, createEdit, EDIT_REASON_MAX, listEdits } from './service.js';
import { OrderEditRef } from './types.js';
import type { EditView } from './views.js';

const orderId = z.string().min(1).max(64).describe('Order UUID or number (ORD-YYYY-NNNNNN)');
const addLine = withGraphqlInput(
  z
    .object({
      entityId: z.guid(),
      variantId: z.guid().optional(),
      quantity: z.number().int().positive().max(10_000),
      giftCardRecipient: giftCardRecipientInput.optional(),
    })
    .strict()
    .describe('A line to add, priced today'),
  'OrderEditAddLineInput',
);
const quantity = withGraphqlInput(
  z
    .object({ lineItemId: z.guid(), quantity: z.number().int().positive().max(10_000) })
    .strict()
    .describe('A new quantity for an order line (remove a line with removeLineIds)'),
  'OrderEditQuantityInput',
);
const editAudit = { entityType: 'order', entityId: (_input: unknown, edit: unknown) => (edit as EditView).orderId };

defineOperation({
  name: 'orderEditCreate',
  kind: 'mutation',
  summary: 'Preview an edit of an unfulfilled order',
  description:
    'Operations: addLines (priced today), removeLineIds, quantities (new quantity per line) and shippingAddress. Kept lines keep the unit price ' +
    'they were sold at; promotions, shipping and tax are recomputed over the new lines and address exactly as checkout prices an order. ' +
    'Answers a pending edit with before, after and difference; nothing on the order changes until it is confirmed. Only an order that is ' +
    'pending, confirmed or processing with no unit fulfilled and no line refunded can be edited (409 otherwise). An added item that cannot be ' +
    'sold or has no price, or an edited order that no longer qualifies for its promotion codes, is 422. An added gift-card product (entity type giftCard) ' +
    'may name a giftCardRecipient (any other line: 422) and reserves no stock; its cards are issued once the edited order is paid. Lowering or ' +
    'removing a gift-card line whose cards were issued is 409 (refund the line instead). Emits orders.edit (action created).',
  rest: { method: 'POST', path: '/orders/:id/edits', status: 201 },
  access: { permission: PERMISSION.update },
  input: {
    id: orderId,
    addLines: z.array(addLine).max(100).optional().describe('Lines to add, priced today'),
    removeLineIds: z.array(z.guid()).max(100).optional().describe('Line item ids to remove'),
    quantities: z.array(quantity).max(100).optional().describe('New quantities of order lines'),
    shippingAddress: address.optional(),
    reason: z.string().max(EDIT_REASON_MAX).optional(),
  },
  output: OrderEditRef,
  resolve: (ctx, input) => createEdit(ctx, input.id, input),
  audit: { event: 'orders.editCreate', ...editAudit },
});

defineOperation({
  name: 'orderEdits',
  kind: 'query',
  summary: 'List the edits of an order, newest first',
  rest: { method: 'GET', path: '/orders/:id/edits' },
  access: { permission: PERMISSION.read },
  input: { id: orderId },
  output: [OrderEditRef],
  resolve: (ctx, input) => listEdits(ctx, input.id),
});

defineOperation({
  name: 'orderEditConfirm',
  kind: 'mutation',
  summary: 'Apply a previewed edit to its order',
  description:
    'pending → confirmed, in one transaction: lines, totals, address, promotion uses and stock reservations, and the payment difference ' +
    '(nothing captured yet: the old payment is voided and the new total authorized through the payment provider as at checkout, a new payment ' +
    'record, reissued_intent; an authorization (manual or on-fulfilment capture) that covers the new total stays and its capture takes the new total, ' +
    'authorization_covers; a paid order whose total went down is refunded the difference through the refund rules; one whose total went up becomes ' +
    'partially_paid, awaiting the difference, which the customer pays outside the edit). A refused authorization is 409. An order changed since the preview ' +
    '(a fulfillment, a refund, a payment, another edit) or a total that no longer matches the preview is 409 with details.reason EDIT_STALE; an ' +
    'edit that is not pending is 409 with details.reason INVALID_TRANSITION; missing stock is 409. Emits orders.edit (action confirmed).',
  rest: { method: 'POST', path: '/orders/:id/edits/:editId/confirm' },
  access: { permission: PERMISSION.update },
  input: { id: orderId, editId: z.guid() },
  output: OrderEditRef,
  resolve: (ctx, input) => confirmEdit(ctx, input.id, input.editId),
  audit: {
    event: 'orders.editConfirm',
    ...editAudit,
    after: (edit: unknown) => {
      const e = edit as EditView;
      return { status: e.status, before: e.before, after: e.after, paymentAction: e.paymentAction };
    },
  },
});

defineOperation({
  name: 'orderEditCancel',
  kind: 'mutation',
  summary: 'Cancel a previewed edit',
  description: 'pending → cancelled; the order is untouched. An edit that is not pending is 409 with details.reason INVALID_TRANSITION. Emits orders.edit (action cancelled).',
  rest: { method: 'POST', path: '/orders/:id/edits/:editId/cancel' },
  access: { permission: PERMISSION.update },
  input: { id: orderId, editId: z.guid() },
  output: OrderEditRef,
  resolve: (ctx, input) => cancelEdit(ctx, input.id, input.editId),
  audit: { event: 'orders.editCancel', ...editAudit },
});
