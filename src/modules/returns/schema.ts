// Return (RMA) operations: staff create, list, read and move returns through the state table
// (status.ts); a signed-in customer asks for a return of their own order within
// policies.returnWindowDays and lists its returns. Every write is audited and emits return.<status>.
import { z } from 'zod';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { pageInput, withGraphqlInput } from '../../graphql/zod-args.js';
import { REFUND_REASON_MAX } from '../orders/refunds.js';
import { createReturn, decideReturn, exchangeReturn, getReturn, listReturns, myOrderReturns, receiveReturn, refundReturn, RETURN_NOTE_MAX } from './service.js';
import { RETURN_REASONS, RETURN_STATUSES } from './status.js';
import { OrderReturnRef } from './types.js';
import './events.js';

export const RETURN_PERMISSION = {
  read: 'returns:read',
  create: 'returns:create',
  update: 'returns:update',
  readOwn: 'returns:read:own',
  createOwn: 'returns:create:own',
} as const;

const SESSION_NOTE = 'Needs a signed-in customer session (cookie or its bearer token): 401 without one, 403 for an API key.';
const lineInput = withGraphqlInput(
  z.object({ lineItemId: z.guid(), quantity: z.number().int().positive() }).strict().describe('Units of one order line to return'),
  'OrderReturnLineInput',
);
const receiveLineInput = withGraphqlInput(
  z
    .object({
      lineItemId: z.guid(),
      disposition: z.enum(['restock', 'damaged']).describe('restock: back into a warehouse; damaged: written off, no stock moves'),
      warehouseId: z.guid().optional().describe('restock only: the warehouse (default: the organization default)'),
    })
    .strict()
    .describe('What happens to one line of the return on receipt'),
  'OrderReturnReceiveLineInput',
);
const exchangeLineInput = withGraphqlInput(
  z
    .object({ entityId: z.guid(), variantId: z.guid().nullish(), quantity: z.number().int().positive().max(10_000) })
    .strict()
    .describe('Units of a catalog entity (variant) the customer gets instead'),
  'OrderReturnExchangeLineInput',
);
const createInput = {
  orderId: z.guid().describe('Order UUID'),
  lines: z.array(lineInput).min(1).max(500).describe('[{ lineItemId, quantity }]'),
  reasonCode: z.enum(RETURN_REASONS).describe(RETURN_REASONS.join(', ')),
  customerNote: z.string().max(RETURN_NOTE_MAX).optional().describe(`At most ${RETURN_NOTE_MAX} characters`),
  exchangeLines: z
    .array(exchangeLineInput)
    .min(1)
    .max(100)
    .optional()
    .describe(
      "Makes it an exchange: [{ entityId, variantId?, quantity }] the customer gets instead, priced at the catalog price in the order's currency and customer groups, " +
        "taxed as checkout taxes an order (the store's tax mode, the order's address and exemption; no promotion code, no shipping), " +
        'and reserved now (409 reason insufficient_stock without stock; 422 for an unsellable or unpriced line)',
    ),
};
const EXCHANGE_NOTE =
  'With exchangeLines it is an exchange (README: Exchanges): the outbound stock is reserved in the same transaction and released by reject, cancel or close; it settles with POST /returns/:id/exchange.';
const QUANTITY_RULE =
  "Per line, at most fulfilled − the units of returns that still stand (not rejected or cancelled): more than the line's quantity is 422, " +
  'more than is returnable is 409 (details.lines gives fulfilled, returned and returnable); concurrent returns of one order are serialized on the order row.';
const note = z.string().max(RETURN_NOTE_MAX).optional().describe(`Staff note, at most ${RETURN_NOTE_MAX} characters`);
const returnId = z.guid().describe('Return UUID');
const auditOf = (action: string) => ({ event: `returns.${action}`, entityType: 'order_return', entityId: (_input: unknown, r: unknown) => (r as { id: string }).id });

defineOperation({
  name: 'orderReturnCreate',
  kind: 'mutation',
  summary: 'Open a return of fulfilled units of an order (staff)',
  description: `Status requested. Staff are not bound by policies.returnWindowDays. ${QUANTITY_RULE} ${EXCHANGE_NOTE} Emits return.created.`,
  rest: { method: 'POST', path: '/orders/:id/returns', status: 201, pathArgs: { id: 'orderId' } },
  access: { permission: RETURN_PERMISSION.create },
  input: createInput,
  output: OrderReturnRef,
  resolve: (ctx, input) => createReturn(ctx, input.orderId, input, 'staff'),
  audit: auditOf('create'),
});

defineOperation({
  name: 'meOrderReturnCreate',
  kind: 'mutation',
  summary: 'Ask for a return of one of my orders',
  description:
    `Within policies.returnWindowDays (default 30) of the order's last fulfillment: after it 403 with details.reason return_window_closed. ` +
    `${QUANTITY_RULE} ${EXCHANGE_NOTE} Another customer's order is 404. Emits return.created. ${SESSION_NOTE}`,
  rest: { method: 'POST', path: '/me/orders/:id/returns', status: 201, pathArgs: { id: 'orderId' } },
  access: { permission: RETURN_PERMISSION.createOwn, customerSession: true },
  input: createInput,
  output: OrderReturnRef,
  resolve: (ctx, input) => createReturn(ctx, input.orderId, input, 'customer'),
  audit: auditOf('create'),
});

defineOperation({
  name: 'meOrderReturns',
  kind: 'query',
  summary: 'The returns of one of my orders, newest first',
  description: `Another customer's order is 404. ${SESSION_NOTE}`,
  rest: { method: 'GET', path: '/me/orders/:id/returns', pathArgs: { id: 'orderId' } },
  access: { permission: RETURN_PERMISSION.readOwn, customerSession: true },
  input: { orderId: z.guid().describe('Order UUID') },
  output: [OrderReturnRef],
  resolve: (ctx, input) => myOrderReturns(ctx, input.orderId),
});

defineOperation({
  name: 'orderReturns',
  kind: 'query',
  summary: 'List returns, newest first',
  description: 'Filter by status and by order.',
  rest: { method: 'GET', path: '/returns' },
  access: { permission: RETURN_PERMISSION.read },
  input: {
    status: z.enum(RETURN_STATUSES).optional().describe(RETURN_STATUSES.join(', ')),
    orderId: z.guid().optional().describe('Only the returns of this order'),
    ...pageInput(20, 100),
  },
  output: pageOf('OrderReturn', OrderReturnRef),
  paginated: true,
  resolve: (ctx, input) => listReturns(ctx, input),
});

defineOperation({
  name: 'orderReturn',
  kind: 'query',
  summary: 'Get one return',
  rest: { method: 'GET', path: '/returns/:id' },
  access: { permission: RETURN_PERMISSION.read },
  input: { id: returnId },
  output: OrderReturnRef,
  resolve: (ctx, input) => getReturn(ctx, input.id),
});

const MOVES = [
  { name: 'orderReturnApprove', action: 'approve', summary: 'Approve a requested return', description: 'requested → approved. Emits return.approved.' },
  {
    name: 'orderReturnReject',
    action: 'reject',
    summary: 'Reject a requested return',
    description: "requested → rejected (final; its units can be asked for again; an exchange's outbound reservation is released). Emits return.rejected.",
  },
  {
    name: 'orderReturnCancel',
    action: 'cancel',
    summary: 'Cancel a return before it is received',
    description: "requested or approved → cancelled (final; its units can be asked for again; an exchange's outbound reservation is released). Emits return.cancelled.",
  },
  {
    name: 'orderReturnClose',
    action: 'close',
    summary: 'Close a received return without a refund',
    description: "received → closed (final; no money moves; an exchange's outbound reservation is released). Emits return.closed.",
  },
] as const;

for (const move of MOVES) {
  defineOperation({
    name: move.name,
    kind: 'mutation',
    summary: move.summary,
    description: `${move.description} Any other move is 422 INVALID_TRANSITION (details.allowed lists the moves allowed from the current status).`,
    rest: { method: 'POST', path: `/returns/:id/${move.action}` },
    access: { permission: RETURN_PERMISSION.update },
    input: { id: returnId, note },
    output: OrderReturnRef,
    resolve: (ctx, input) => decideReturn(ctx, input.id, move.action, input.note),
    audit: auditOf(move.action),
  });
}

defineOperation({
  name: 'orderReturnReceive',
  kind: 'mutation',
  summary: 'Receive the goods of an approved return',
  description:
    'approved → received. Every line of the return is named once: restock (a `return` stock adjustment into warehouseId, default the ' +
    'organization default warehouse, referencing return:<id>) or damaged (no stock moves). Any other move is 422 INVALID_TRANSITION. Emits return.received.',
  rest: { method: 'POST', path: '/returns/:id/receive' },
  access: { permission: [RETURN_PERMISSION.update, 'inventory:adjust'] },
  input: { id: returnId, lines: z.array(receiveLineInput).min(1).max(500).describe('[{ lineItemId, disposition, warehouseId? }]'), note },
  output: OrderReturnRef,
  resolve: (ctx, input) => receiveReturn(ctx, input.id, input),
  audit: auditOf('receive'),
});

defineOperation({
  name: 'orderReturnRefund',
  kind: 'mutation',
  summary: 'Refund a received return',
  description:
    "received → refunded: refunds the returned lines through the order refund service (POST /orders/:id/refunds rules: amount from the order's " +
    "own prices, never above what was captured, the operator's daily cap (403), the undo window, then the payment provider). refundId names the " +
    `order refund. Any other move is 422 INVALID_TRANSITION. Emits return.refunded. The refund's reason is "return <id> (<reasonCode>)" (≤ ${REFUND_REASON_MAX} characters).`,
  rest: { method: 'POST', path: '/returns/:id/refund' },
  access: { permission: [RETURN_PERMISSION.update, 'orders:update'] },
  input: {
    id: returnId,
    method: z
      .enum(['original_payment', 'store_credit'])
      .default('original_payment')
      .describe("original_payment (default) or store_credit (the customer's store credit ledger; a guest order is 422)"),
    shipping: z.boolean().optional().describe("Also refund what is left of the order's shipping, tax included"),
  },
  output: OrderReturnRef,
  resolve: (ctx, input) => refundReturn(ctx, input.id, input),
  audit: auditOf('refund'),
});

defineOperation({
  name: 'orderReturnExchange',
  kind: 'mutation',
  summary: 'Settle a received exchange',
  description:
    'received → exchanged (an exchange only; a plain return is 422 INVALID_TRANSITION). In one transaction: the returned lines are refunded on the original order ' +
    "(their value, by the refund rules' amounts, tax included, is the credit); the replacement order (id exchangeOrderId) is made of the outbound lines with the tax " +
    'they were priced with (grandTotal exchangeTotal), holding the stock reserved at creation, and paid by the credit; a positive difference (exchangeTotal − credit) is authorized and captured through the payment provider with paymentMethodId ' +
    "(default: the original order's), the provider's event confirming the replacement as at checkout (a decline is 409 reason payment_declined); a negative difference " +
    'is refunded through the order refund service (daily cap 403, undo window) to method. Any refusal leaves the return received. Emits return.exchanged and orders.create.',
  rest: { method: 'POST', path: '/returns/:id/exchange' },
  access: { permission: [RETURN_PERMISSION.update, 'orders:update'] },
  input: {
    id: returnId,
    method: z
      .enum(['original_payment', 'store_credit'])
      .default('original_payment')
      .describe("Where a credit above the replacement's total goes: original_payment (default) or store_credit (a guest order is 422)"),
    paymentMethodId: z.string().min(1).max(255).optional().describe("The provider's payment method a positive difference is charged to (default: the original order's)"),
  },
  output: OrderReturnRef,
  resolve: (ctx, input) => exchangeReturn(ctx, input.id, { method: input.method, paymentMethodId: input.paymentMethodId ?? null }),
  audit: auditOf('exchange'),
});
