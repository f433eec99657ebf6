// What other modules use from orders (the customer portal, plugins):
//   - getOrder / listOrders / findOrder: orders as the caller may see them (orders:read:own
//     callers see their own only);
//   - listFulfillments: tracking;
//   - invoiceHtml / invoicePdf / receiptHtml: the documents;
//   - the views, the state table and the event payload types.
export { findOrder, getOrder, listOrders, recentOrdersByCustomer, CUSTOMER_ORDERS_MAX } from './service.js';
export { listFulfillments } from './fulfillments.js';
export { invoiceHtml, invoicePdf, receiptHtml, type RenderedDocument } from './documents/service.js';
export { ORDER_STATUSES, ORDER_TRANSITIONS, findTransition } from './status.js';
export { OrderRef } from './types.js';
export type { OrderView, OrderLineView, OrderPayload, FulfillmentView, RefundView, NoteView } from './views.js';
export type { OrderStatusChangePayload } from './events.js';
