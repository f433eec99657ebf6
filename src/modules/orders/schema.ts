// Order operations: list, get, status, fulfillments, refunds (and the cap), notes, timeline,
// documents and the invoice email. The documents are also served as files by raw routes
// (documents/routes.ts); both call the same services with the same permissions.
import { z } from 'zod';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { pageInput, withGraphqlInput } from '../../graphql/zod-args.js';
import { emailInvoice, invoiceHtml, invoicePdf, receiptHtml, type RenderedDocument } from './documents/service.js';
import { createFulfillment, listFulfillments } from './fulfillments.js';
import { markPickedUp, markReadyForPickup } from './pickup.js';
import { addNote, deleteNote, listNotes, NOTE_BODY_MAX } from './notes.js';
import { withOrderIncludes } from '../payments/graph.js';
import { createRefund, listRefunds, REFUND_REASON_MAX, refundCapStatus, undoRefund } from './refunds.js';
import { getOrder, listOrders, updateOrderStatus } from './service.js';
import { PERMISSION } from './shared.js';
import { ORDER_STATUSES, PAYMENT_STATUSES } from './status.js';
import { orderTimeline } from './timeline.js';
import { InvoiceEmailRef, OrderDocumentRef, OrderFulfillmentRef, OrderNoteRef, OrderRef, OrderRefundRef, RefundCapRef, TimelineEntryRef, type OrderDocumentView } from './types.js';
import './events.js';
import './settlement.js';
import './documents/routes.js';

const orderId = z.string().min(1).max(64).describe('Order UUID or number (ORD-YYYY-NNNNNN)');
const readAny = { anyPermission: [PERMISSION.read, PERMISSION.readOwn] } as const;
// REST only (rest.queryOnly): over GraphQL the selection is the include.
const orderInclude = z.string().max(100).optional().describe("Comma-separated embeds: payments (the order's payment records; one statement per page). An unknown name is 422.");
const readOwnNote = 'Callers with only orders:read:own see their own orders and get 404 for any other.';
const lineInput = withGraphqlInput(
  z.object({ lineItemId: z.guid(), quantity: z.number().int().positive() }).strict().describe('A quantity of one order line'),
  'OrderLineQuantityInput',
);

defineOperation({
  name: 'orders',
  kind: 'query',
  summary: 'List orders, newest first',
  description: `Filters (all optional, combined with AND): status, paymentStatus, a createdAt window (createdFrom, createdTo, inclusive) and search. ${readOwnNote}`,
  rest: { method: 'GET', path: '/orders', queryOnly: ['include'] },
  access: readAny,
  input: {
    status: z.enum(ORDER_STATUSES).optional().describe(ORDER_STATUSES.join(', ')),
    paymentStatus: z
      .enum(PAYMENT_STATUSES)
      .optional()
      .describe(`Only orders in this payment state: ${PAYMENT_STATUSES.join(', ')}`),
    createdFrom: z.coerce.date().optional().describe('Only orders created at or after this instant (ISO 8601)'),
    createdTo: z.coerce.date().optional().describe('Only orders created at or before this instant (ISO 8601)'),
    search: z.string().trim().min(1).max(200).optional().describe('Part of the order number or of the customer email, case-insensitive (e.g. 000123 or @example.com)'),
    ...pageInput(20, 100),
    include: orderInclude,
  },
  refine: (input) => (input.createdFrom && input.createdTo && input.createdTo < input.createdFrom ? [{ field: 'createdTo', message: 'must not be before createdFrom' }] : []),
  output: pageOf('Order', OrderRef),
  paginated: true,
  resolve: async (ctx, input) => withOrderIncludes(await listOrders(ctx, input), input.include),
});

defineOperation({
  name: 'order',
  kind: 'query',
  summary: 'Get one order by UUID or by number (ORD-YYYY-NNNNNN)',
  description: readOwnNote,
  rest: { method: 'GET', path: '/orders/:id', pathArgs: { id: 'idOrNumber' }, queryOnly: ['include'] },
  access: readAny,
  input: { idOrNumber: orderId, include: orderInclude },
  output: OrderRef,
  resolve: async (ctx, input) => withOrderIncludes(await getOrder(ctx, input.idOrNumber), input.include),
});

defineOperation({
  name: 'orderStatusUpdate',
  kind: 'mutation',
  summary: "Move an order's status along the state table",
  description:
    'pending → confirmed → processing → partially_fulfilled | fulfilled; fulfilled, picked_up → refunded; pending, confirmed, processing, ' +
    'partially_fulfilled and ready_for_pickup → cancelled (releases reserved stock, voids an uncollected payment). PATCH to fulfilled records a fulfillment ' +
    'of every unit not yet fulfilled. Pickup orders are not shipped (partially_fulfilled / fulfilled are refused for them): they move with ' +
    'orderReadyForPickup and orderPickedUp. Any other move is 422 INVALID_TRANSITION. Emits orders.statusChange.',
  rest: { method: 'PATCH', path: '/orders/:id/status' },
  access: { permission: PERMISSION.update },
  input: { id: orderId, status: z.enum(ORDER_STATUSES).describe('The target status; cancelled cancels'), reason: z.string().max(500).optional() },
  output: OrderRef,
  resolve: (ctx, input) => updateOrderStatus(ctx, input.id, input),
  audit: {
    event: 'orders.statusChange',
    entityType: 'order',
    entityId: (_input, order) => order.id,
    before: async (ctx, input) => ({ status: (await getOrder(ctx, input.id)).status }),
    after: (order) => ({ status: order.status }),
  },
});

defineOperation({
  name: 'orderFulfillments',
  kind: 'query',
  summary: 'List the fulfillments of an order, oldest first',
  description: readOwnNote,
  rest: { method: 'GET', path: '/orders/:id/fulfillments' },
  access: readAny,
  input: { id: orderId },
  output: [OrderFulfillmentRef],
  resolve: (ctx, input) => listFulfillments(ctx, input.id),
});

defineOperation({
  name: 'orderFulfillmentCreate',
  kind: 'mutation',
  summary: 'Record a fulfillment (shipped units) of an order',
  description:
    'The order must be processing or partially_fulfilled. `lines` defaults to every unit not yet fulfilled; a quantity above what is ' +
    "left to fulfill is 422. Commits the reserved stock, updates each line's fulfillment status and moves the order to " +
    'partially_fulfilled or fulfilled. Emits fulfillment.create.',
  rest: { method: 'POST', path: '/orders/:id/fulfillments', status: 201 },
  access: { permission: PERMISSION.update },
  input: {
    id: orderId,
    lines: z.array(lineInput).min(1).max(500).optional().describe('[{ lineItemId, quantity }]'),
    carrier: z.string().min(1).max(100).optional(),
    trackingNumber: z.string().min(1).max(200).optional(),
    trackingUrl: z.url().max(2000).optional(),
  },
  output: OrderFulfillmentRef,
  resolve: (ctx, input) => createFulfillment(ctx, input.id, input),
  audit: { event: 'fulfillment.create', entityType: 'order', entityId: (_input, fulfillment) => fulfillment.orderId },
});

defineOperation({
  name: 'orderReadyForPickup',
  kind: 'mutation',
  summary: 'Mark a pickup order ready for pickup',
  description:
    'For an order whose shipping line is a pickup method: processing → ready_for_pickup (packed and waiting at the pickup location). ' +
    'A delivery order, or an order in another status, is 422 INVALID_TRANSITION. Emits orders.statusChange (trigger pickup).',
  rest: { method: 'POST', path: '/orders/:id/ready-for-pickup' },
  access: { permission: PERMISSION.update },
  input: { id: orderId, reason: z.string().max(500).optional() },
  output: OrderRef,
  resolve: (ctx, input) => markReadyForPickup(ctx, input.id, input),
  audit: { event: 'orders.statusChange', entityType: 'order', entityId: (_input, order) => order.id, after: (order) => ({ status: order.status }) },
});

defineOperation({
  name: 'orderPickedUp',
  kind: 'mutation',
  summary: 'Mark a pickup order picked up by the shopper',
  description:
    'ready_for_pickup → picked_up: records a fulfillment of every unit not yet fulfilled (commits the stock reserved at the pickup ' +
    'warehouse). A delivery order, or an order not ready for pickup, is 422 INVALID_TRANSITION. Emits fulfillment.create and ' +
    'orders.statusChange (trigger pickup).',
  rest: { method: 'POST', path: '/orders/:id/picked-up' },
  access: { permission: PERMISSION.update },
  input: { id: orderId, reason: z.string().max(500).optional() },
  output: OrderRef,
  resolve: (ctx, input) => markPickedUp(ctx, input.id, input),
  audit: { event: 'orders.statusChange', entityType: 'order', entityId: (_input, order) => order.id, after: (order) => ({ status: order.status }) },
});

defineOperation({
  name: 'orderRefundCreate',
  kind: 'mutation',
  summary: 'Refund order lines',
  description:
    `A line above quantity − refundedQuantity is 422. The amount is derived from the order's own unit prices, discounts and taxes ` +
    `(shipping is refunded with shipping: true, what is left of it, tax included) and never exceeds what was captured (409 when nothing is left to refund). Past the ` +
    `operator's daily cap (policies.refundDailyCap, in the organization's timezone) the refund is 403. The refund stays pending ` +
    `while it can be undone (policies.refundUndoWindowMinutes, default 15), then goes through the payment adapter with the refund id ` +
    `as idempotency key. reason: at most ${REFUND_REASON_MAX} characters. A replacement order's exchange credit (an exchange's returned goods' value) goes ` +
    `back through the original order's payment (guests always; store credit only with destination: store_credit).`,
  rest: { method: 'POST', path: '/orders/:id/refunds', status: 201 },
  access: { permission: PERMISSION.update },
  input: {
    id: orderId,
    lines: z.array(lineInput).max(500).describe('[{ lineItemId, quantity }]; may be empty when shipping is true'),
    shipping: z.boolean().optional().describe("Also refund what is left of the order's shipping lines, tax included"),
    reason: z.string().max(REFUND_REASON_MAX).optional(),
    destination: z
      .enum(['original_payment', 'store_credit'])
      .optional()
      .describe(
        "original_payment (default): the payments the order was paid with — a replacement order's exchange credit goes back through the original order's payment; " +
          "store_credit: the whole refund as the customer's store credit (a guest order is 422)",
      ),
  },
  refine: (input) => (input.lines.length || input.shipping ? [] : [{ field: 'lines', message: 'must name at least one line, unless shipping is true' }]),
  output: OrderRefundRef,
  resolve: (ctx, input) => createRefund(ctx, input.id, input),
  audit: { event: 'orders.refund', entityType: 'order', entityId: (_input, refund) => refund.orderId },
});

defineOperation({
  name: 'orderRefundUndo',
  kind: 'mutation',
  summary: 'Undo a refund inside its undo window',
  description: 'Gives the refunded quantities back. After the window (policies.refundUndoWindowMinutes, default 15) the undo is blocked: 409.',
  rest: { method: 'POST', path: '/orders/:id/refunds/:refundId/undo' },
  access: { permission: PERMISSION.update },
  input: { id: orderId, refundId: z.guid() },
  output: OrderRefundRef,
  resolve: (ctx, input) => undoRefund(ctx, input.id, input.refundId),
  audit: { event: 'orders.refundUndo', entityType: 'order', entityId: (_input, refund) => refund.orderId },
});

defineOperation({
  name: 'orderRefunds',
  kind: 'query',
  summary: 'List the refunds of an order, newest first',
  rest: { method: 'GET', path: '/orders/:id/refunds' },
  access: { permission: PERMISSION.read },
  input: { id: orderId },
  output: [OrderRefundRef],
  resolve: (ctx, input) => listRefunds(ctx, input.id),
});

defineOperation({
  name: 'orderRefundCap',
  kind: 'query',
  summary: "The acting operator's daily refund-cap status",
  rest: { method: 'GET', path: '/orders/refunds/cap' },
  access: { permission: PERMISSION.read },
  input: {},
  output: RefundCapRef,
  resolve: (ctx) => refundCapStatus(ctx),
});

defineOperation({
  name: 'orderNoteCreate',
  kind: 'mutation',
  summary: 'Add a note to an order',
  rest: { method: 'POST', path: '/orders/:id/notes', status: 201 },
  access: { permission: PERMISSION.update },
  input: { id: orderId, body: z.string().min(1).max(NOTE_BODY_MAX).describe(`1 to ${NOTE_BODY_MAX} characters`), pinned: z.boolean().default(false) },
  output: OrderNoteRef,
  resolve: (ctx, input) => addNote(ctx, input.id, input),
  audit: { event: 'orders.noteCreate', entityType: 'order', entityId: (_input, note) => note.orderId },
});

defineOperation({
  name: 'orderNotes',
  kind: 'query',
  summary: 'List the notes of an order, pinned first, then newest first',
  rest: { method: 'GET', path: '/orders/:id/notes' },
  access: { permission: PERMISSION.read },
  input: { id: orderId },
  output: [OrderNoteRef],
  resolve: (ctx, input) => listNotes(ctx, input.id),
});

defineOperation({
  name: 'orderNoteDelete',
  kind: 'mutation',
  summary: 'Delete a note of an order; answers the deleted note',
  rest: { method: 'DELETE', path: '/orders/:id/notes/:noteId' },
  access: { permission: PERMISSION.update },
  input: { id: orderId, noteId: z.guid() },
  output: OrderNoteRef,
  resolve: (ctx, input) => deleteNote(ctx, input.id, input.noteId),
  audit: { event: 'orders.noteDelete', entityType: 'order', entityId: (_input, note) => note.orderId },
});

defineOperation({
  name: 'orderTimeline',
  kind: 'query',
  summary: 'The history of an order, newest first',
  description: 'Merges status changes, notes, refunds and refund undos as { type, at, actor, summary, data }.',
  rest: { method: 'GET', path: '/orders/:id/timeline' },
  access: { permission: PERMISSION.read },
  input: { id: orderId },
  output: [TimelineEntryRef],
  resolve: (ctx, input) => orderTimeline(ctx, input.id),
});

function asDocument(doc: RenderedDocument, encoding: 'utf8' | 'base64'): OrderDocumentView {
  return { filename: doc.filename, contentType: doc.contentType, encoding, content: doc.body.toString(encoding) };
}

defineOperation({
  name: 'orderInvoicePdf',
  kind: 'query',
  summary: 'The fiscal PDF invoice of an order (base64)',
  description: `The first invoice of an order issues its invoice number (INV-YYYY-NNNNNN). REST: GET /api/orders/:id/invoice.pdf serves the file. ${readOwnNote}`,
  access: readAny,
  input: { id: orderId },
  output: OrderDocumentRef,
  resolve: async (ctx, input) => asDocument(await invoicePdf(ctx, input.id), 'base64'),
});

defineOperation({
  name: 'orderInvoiceHtml',
  kind: 'query',
  summary: 'The printable HTML invoice of an order',
  description: `REST: GET /api/orders/:id/invoice.html serves the page. ${readOwnNote}`,
  access: readAny,
  input: { id: orderId },
  output: OrderDocumentRef,
  resolve: async (ctx, input) => asDocument(await invoiceHtml(ctx, input.id), 'utf8'),
});

defineOperation({
  name: 'orderReceiptHtml',
  kind: 'query',
  summary: 'The printable HTML receipt of an order',
  description: `REST: GET /api/orders/:id/receipt.html serves the page. ${readOwnNote}`,
  access: readAny,
  input: { id: orderId },
  output: OrderDocumentRef,
  resolve: async (ctx, input) => asDocument(await receiptHtml(ctx, input.id), 'utf8'),
});

defineOperation({
  name: 'orderInvoiceEmail',
  kind: 'mutation',
  summary: "Email the invoice to the order's customer address",
  description: `Sends the HTML invoice with the PDF attached to the order's customer email, and to no other address (422 when the order has none). Through SMTP when mail.smtpUrl is set, otherwise written as JSON under DATA_DIR/mail. ${readOwnNote}`,
  rest: { method: 'POST', path: '/orders/:id/invoice/email' },
  access: readAny,
  input: { id: orderId },
  output: InvoiceEmailRef,
  resolve: (ctx, input) => emailInvoice(ctx, input.id),
  audit: { event: 'orders.invoiceEmail', entityType: 'order', entityId: (input) => input.id },
});
