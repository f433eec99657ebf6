// GraphQL output types of orders. REST bodies are the same objects.
import { builder } from '../../graphql/builder.js';
import { graphOnly } from '../../graphql/loaders.js';
import { AddressRef, type AddressView } from '../../graphql/address.js';
import type { HookError } from '../../events/hooks.js';
import type { RefundCapView } from './refunds.js';
import type { TimelineEntry } from './timeline.js';
import type { FulfillmentView, NoteView, OrderLineView, OrderView, RefundLineView, RefundView } from './views.js';
import type { InvoiceEmailResult } from './documents/service.js';
import { defineEnum } from '../../graphql/enums.js';
import { ORDER_STATUSES, PAYMENT_STATUSES } from './status.js';

export const OrderStatusEnum = defineEnum('OrderStatus', ORDER_STATUSES, 'State of an order (PATCH /orders/:id/status follows the state table).');
export const PaymentStatusEnum = defineEnum(
  'PaymentStatus',
  PAYMENT_STATUSES,
  'Payment state of an order (derived from its payments: authorized — authorized, nothing captured yet; partially_paid — money captured for part of the total).',
);
export const LineFulfillmentStatusEnum = defineEnum(
  'LineFulfillmentStatus',
  ['unfulfilled', 'partially_fulfilled', 'fulfilled'] as const,
  'How much of an order line has shipped.',
);
export const RefundDestinationEnum = defineEnum(
  'RefundDestination',
  ['original_payment', 'store_credit'] as const,
  "original_payment: through the payment provider; store_credit: the customer's store credit ledger.",
);
const RefundStatusEnum = defineEnum(
  'RefundStatus',
  ['pending', 'succeeded', 'failed', 'undone'] as const,
  'pending until the undo window closes, then paid out (succeeded or failed); undone inside the window.',
);
export const ActorKindEnum = defineEnum(
  'ActorKind',
  ['user', 'apiKey', 'anonymous', 'system'] as const,
  'Who acted: a user (API keys act for their user), an API key, an anonymous caller or the system.',
);
const TimelineEntryTypeEnum = defineEnum('OrderTimelineEntryType', ['status', 'note', 'refund', 'edit'] as const, 'Kind of an order timeline entry.', {
  edit: 'An order edit was confirmed (data.before and data.after)',
});
const DocumentEncodingEnum = defineEnum('DocumentEncoding', ['utf8', 'base64'] as const, 'utf8 for HTML, base64 for PDF.');
const MailTransportEnum = defineEnum('MailTransport', ['smtp', 'file'] as const, 'smtp, or file (JSON under DATA_DIR/mail).');

export const OrderLineRef = builder.objectRef<OrderLineView>('OrderLine').implement({
  description: 'One line of an order, priced at checkout.',
  fields: (t) => ({
    lineItemId: t.expose('lineItemId', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    entityType: t.exposeString('entityType'),
    sku: t.exposeString('sku'),
    title: t.exposeString('title'),
    quantity: t.exposeInt('quantity'),
    refundedQuantity: t.exposeInt('refundedQuantity', { description: 'Units refunded (pending or paid out; undone refunds give them back)' }),
    fulfilledQuantity: t.exposeInt('fulfilledQuantity'),
    fulfillmentStatus: t.field({ type: LineFulfillmentStatusEnum, resolve: (l) => l.fulfillmentStatus as never }),
    unitPrice: t.expose('unitPrice', { type: 'MinorUnits' }),
    totalPrice: t.expose('totalPrice', { type: 'MinorUnits', description: 'unitPrice × quantity' }),
    discountTotal: t.expose('discountTotal', { type: 'MinorUnits', description: "This line's share of the order's discounts" }),
    taxClassId: t.expose('taxClassId', { type: 'UUID', nullable: true }),
    taxRateBps: t.exposeInt('taxRateBps', { description: 'Tax rate in basis points' }),
    taxTotal: t.expose('taxTotal', { type: 'MinorUnits', description: 'Tax on (totalPrice − discountTotal), rounded half up' }),
  }),
});

interface OrderPricingView {
  promotions?: Array<{ code: string; promotionId: string; type: string; amount: number; redemptionId: string }>;
  freeShipping?: boolean;
  shipping?: { flatRate: number; freeOver: number | null } | null;
  pricesIncludeTax?: boolean;
  taxExempt?: boolean;
  taxExemptionNote?: string | null;
}

const AppliedPromotionRef = builder.objectRef<NonNullable<OrderPricingView['promotions']>[number]>('OrderAppliedPromotion').implement({
  description: 'A promotion code redeemed by the order.',
  fields: (t) => ({
    code: t.exposeString('code'),
    promotionId: t.expose('promotionId', { type: 'UUID' }),
    type: t.exposeString('type', { description: 'The promotion type (see PromotionType)' }),
    amount: t.expose('amount', { type: 'MinorUnits', description: 'Discount it gave, minor units of the order currency' }),
    redemptionId: t.expose('redemptionId', { type: 'UUID' }),
  }),
});

const ShippingRuleRef = builder.objectRef<NonNullable<OrderPricingView['shipping']>>('OrderShippingRule').implement({
  description: 'The shipping rule (settings `shipping`) in force when the order was placed.',
  fields: (t) => ({
    flatRate: t.expose('flatRate', { type: 'MinorUnits' }),
    freeOver: t.expose('freeOver', { type: 'MinorUnits', nullable: true, description: 'Subtotal from which shipping is free; null: never' }),
  }),
});

const OrderPricingRef = builder.objectRef<OrderPricingView>('OrderPricing').implement({
  description: 'How the order was priced: applied promotions, the shipping rule, the tax mode and any tax exemption.',
  fields: (t) => ({
    promotions: t.field({ type: [AppliedPromotionRef], resolve: (p) => p.promotions ?? [] }),
    freeShipping: t.boolean({ resolve: (p) => p.freeShipping ?? false }),
    shipping: t.field({ type: ShippingRuleRef, nullable: true, resolve: (p) => p.shipping ?? null }),
    pricesIncludeTax: t.boolean({
      description: 'The listed prices contained tax: taxTotal is included in the amounts, not added to grandTotal',
      resolve: (p) => p.pricesIncludeTax === true,
    }),
    taxExempt: t.boolean({
      description: "No tax was charged: one of the order's customer groups is tax-exempt (settings tax.exemptCustomerGroupIds)",
      resolve: (p) => p.taxExempt === true,
    }),
    taxExemptionNote: t.string({
      nullable: true,
      description: 'The note invoices print for an exempt order, e.g. "Reverse charge"',
      resolve: (p) => (p.taxExempt === true ? (p.taxExemptionNote ?? 'Reverse charge') : null),
    }),
  }),
});

export const OrderRef = builder.objectRef<OrderView>('Order').implement({
  description:
    'An order: grandTotal = subtotal − discountTotal + taxTotal + shippingTotal, in minor units of currency; when pricing.pricesIncludeTax, the tax is inside the prices and grandTotal = subtotal − discountTotal + shippingTotal.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    orderNumber: t.string({ description: 'ORD-YYYY-NNNNNN, sequential per organization and year', resolve: (o) => o.number }),
    number: t.exposeString('number', { description: 'ORD-YYYY-NNNNNN (the same as orderNumber)', deprecationReason: 'Use orderNumber; number stays for one release.' }),
    status: t.field({ type: OrderStatusEnum, resolve: (o) => o.status as never }),
    paymentStatus: t.field({ type: PaymentStatusEnum, resolve: (o) => o.paymentStatus as never }),
    currency: t.exposeString('currency'),
    customerId: t.expose('customerId', {
      type: 'UUID',
      nullable: true,
      description: "The customer (their account's user id, as Customer.id); null for a guest order",
    }),
    customerEmail: t.exposeString('customerEmail', { nullable: true }),
    subtotal: t.expose('subtotal', { type: 'MinorUnits' }),
    discountTotal: t.expose('discountTotal', { type: 'MinorUnits' }),
    taxTotal: t.expose('taxTotal', { type: 'MinorUnits' }),
    shippingTotal: t.expose('shippingTotal', { type: 'MinorUnits' }),
    grandTotal: t.expose('grandTotal', { type: 'MinorUnits' }),
    capturedAmount: t.expose('capturedAmount', { type: 'MinorUnits', description: 'What the payment provider confirmed as charged' }),
    refundedAmount: t.expose('refundedAmount', { type: 'MinorUnits', description: 'Refunds pending or paid out' }),
    shippingAddress: t.field({ type: AddressRef, nullable: true, resolve: (o) => o.shippingAddress as AddressView | null }),
    promotionCodes: t.exposeStringList('promotionCodes'),
    customerGroupIds: t.exposeStringList('customerGroupIds'),
    pricing: t.field({ type: OrderPricingRef, description: 'Applied promotions and the shipping rule', resolve: (o) => o.pricing as OrderPricingView }),
    paymentProvider: t.exposeString('paymentProvider', { nullable: true }),
    paymentIntentId: t.exposeString('paymentIntentId', { nullable: true }),
    invoiceNumber: t.exposeString('invoiceNumber', { nullable: true, description: 'INV-YYYY-NNNNNN, issued with the first invoice' }),
    lineItems: t.expose('lineItems', { type: [OrderLineRef] }),
    placedAt: t.expose('placedAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const OrderNoteRef = builder.objectRef<NoteView>('OrderNote').implement({
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    orderId: t.expose('orderId', { type: 'UUID' }),
    body: t.exposeString('body'),
    pinned: t.exposeBoolean('pinned'),
    authorId: t.exposeString('authorId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const RefundLineRef = builder.objectRef<RefundLineView>('OrderRefundLine').implement({
  fields: (t) => ({
    lineItemId: t.expose('lineItemId', { type: 'UUID' }),
    quantity: t.exposeInt('quantity'),
    amount: t.expose('amount', { type: 'MinorUnits' }),
  }),
});

export const OrderRefundRef = builder.objectRef<RefundView>('OrderRefund').implement({
  description: 'A refund of order lines. pending until its undo window closes, then paid out through the payment adapter (succeeded or failed); undone inside the window.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    orderId: t.expose('orderId', { type: 'UUID' }),
    amount: t.expose('amount', { type: 'MinorUnits' }),
    shippingAmount: t.expose('shippingAmount', { type: 'MinorUnits', description: 'The part of amount that refunds shipping, tax included' }),
    currency: t.exposeString('currency'),
    reason: t.exposeString('reason', { nullable: true }),
    status: t.field({ type: RefundStatusEnum, resolve: (r) => r.status as never }),
    operatorId: t.exposeString('operatorId'),
    lines: t.expose('lines', { type: [RefundLineRef] }),
    undoDeadline: t.expose('undoDeadline', { type: 'DateTime' }),
    undoneAt: t.expose('undoneAt', { type: 'DateTime', nullable: true }),
    undoneBy: t.exposeString('undoneBy', {
      nullable: true,
      description: 'Id of the user or API key that undid it',
      deprecationReason: 'Use undoneById (the ...Id naming of every id field); undoneBy stays for REST.',
    }),
    undoneById: t.exposeString('undoneBy', { nullable: true, description: 'Id of the user or API key that undid it (null while the refund stands)' }),
    settledAt: t.expose('settledAt', { type: 'DateTime', nullable: true }),
    providerRefundId: t.exposeString('providerRefundId', { nullable: true }),
    failureReason: t.exposeString('failureReason', { nullable: true }),
    destination: t.field({ type: RefundDestinationEnum, description: 'Where the money goes when it settles', resolve: (r) => r.destination as never }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const RefundCapRef = builder.objectRef<RefundCapView>('OrderRefundCap').implement({
  description: "The acting operator's refunds today against policies.refundDailyCap, in the organization's timezone.",
  fields: (t) => ({
    operatorId: t.exposeString('operatorId'),
    day: t.exposeString('day', { description: 'YYYY-MM-DD in the organization timezone' }),
    timezone: t.exposeString('timezone'),
    cap: t.expose('cap', { type: 'MinorUnits', nullable: true, description: 'null: no cap configured' }),
    used: t.expose('used', { type: 'MinorUnits' }),
    remaining: t.expose('remaining', { type: 'MinorUnits', nullable: true }),
    resetsAt: t.expose('resetsAt', { type: 'DateTime' }),
  }),
});

const FulfillmentLineRef = builder.objectRef<{ lineItemId: string; quantity: number }>('OrderFulfillmentLine').implement({
  fields: (t) => ({
    lineItemId: t.expose('lineItemId', { type: 'UUID' }),
    quantity: t.exposeInt('quantity'),
  }),
});

export const OrderFulfillmentRef = builder.objectRef<FulfillmentView>('OrderFulfillment').implement({
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    orderId: t.expose('orderId', { type: 'UUID' }),
    carrier: t.exposeString('carrier', { nullable: true }),
    trackingNumber: t.exposeString('trackingNumber', { nullable: true }),
    trackingUrl: t.exposeString('trackingUrl', { nullable: true }),
    lines: t.expose('lines', { type: [FulfillmentLineRef] }),
    createdBy: t.exposeString('createdBy', {
      nullable: true,
      description: 'Id of the user or API key that recorded the shipment',
      deprecationReason: 'Use createdById (the ...Id naming of every id field); createdBy stays for REST.',
    }),
    createdById: t.exposeString('createdBy', { nullable: true, description: 'Id of the user or API key that recorded the shipment' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
// The ...Id spellings are GraphQL-only: REST bodies keep the names the contract has.
graphOnly('OrderRefund', 'undoneById');
graphOnly('OrderFulfillment', 'createdById');

export const TimelineActorRef = builder.objectRef<TimelineEntry['actor']>('OrderTimelineActor').implement({
  fields: (t) => ({
    id: t.exposeString('id', { nullable: true, description: 'User id (API keys act for their user); null for the system' }),
    kind: t.field({ type: ActorKindEnum, resolve: (a) => a.kind as never }),
  }),
});

export const TimelineEntryRef = builder.objectRef<TimelineEntry>('OrderTimelineEntry').implement({
  fields: (t) => ({
    type: t.expose('type', { type: TimelineEntryTypeEnum, description: 'An undo is a refund entry with data.action = undone' }),
    at: t.expose('at', { type: 'DateTime' }),
    actor: t.expose('actor', { type: TimelineActorRef }),
    summary: t.exposeString('summary'),
    data: t.expose('data', { type: 'JSONObject' }),
  }),
});

export interface OrderDocumentView {
  filename: string;
  contentType: string;
  /** HTML as text; a PDF base64-encoded. */
  content: string;
  encoding: 'utf8' | 'base64';
}

export const OrderDocumentRef = builder.objectRef<OrderDocumentView>('OrderDocument').implement({
  description: 'A rendered order document. Over REST the same documents are served as files (invoice.pdf, invoice.html, receipt.html).',
  fields: (t) => ({
    filename: t.exposeString('filename'),
    contentType: t.exposeString('contentType'),
    encoding: t.expose('encoding', { type: DocumentEncodingEnum }),
    content: t.exposeString('content'),
  }),
});

export const InvoiceEmailRef = builder.objectRef<InvoiceEmailResult>('OrderInvoiceEmail').implement({
  fields: (t) => ({
    sent: t.exposeBoolean('sent'),
    to: t.exposeString('to', { description: "The order's customer address, the only possible recipient" }),
    invoiceNumber: t.exposeString('invoiceNumber'),
    messageId: t.exposeString('messageId'),
    transport: t.field({ type: MailTransportEnum, resolve: (m) => m.transport as never }),
  }),
});

const HookErrorRef = builder.objectRef<HookError>('HookError').implement({
  description: 'A non-fatal error of an after-hook (the operation itself succeeded).',
  fields: (t) => ({
    key: t.exposeString('key'),
    hook: t.exposeString('hook'),
    message: t.exposeString('message'),
    code: t.exposeString('code', { nullable: true }),
  }),
});

export const CheckoutMetaRef = builder.objectRef<{ hookErrors: HookError[]; replayed: boolean }>('CheckoutMeta').implement({
  fields: (t) => ({
    hookErrors: t.expose('hookErrors', { type: [HookErrorRef] }),
    replayed: t.exposeBoolean('replayed', { description: 'true when an idempotencyKey replay returned the original order' }),
  }),
});
