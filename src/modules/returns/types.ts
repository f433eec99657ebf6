// GraphQL output types of returns. REST bodies are the same objects.
import { RefundDestinationEnum } from '../orders/types.js';
import { builder } from '../../graphql/builder.js';
import { defineEnum } from '../../graphql/enums.js';
import { RETURN_REASONS, RETURN_STATUSES } from './status.js';
import type { ExchangeLineView, ReturnLineView, ReturnView } from './views.js';

export const ReturnStatusEnum = defineEnum(
  'ReturnStatus',
  RETURN_STATUSES,
  'State of a return (README: Returns). requested → approved → received → refunded | closed; requested → rejected; requested, approved → cancelled.',
);
export const ReturnReasonEnum = defineEnum('ReturnReason', RETURN_REASONS, 'Why the goods come back.');
export const ReturnDispositionEnum = defineEnum(
  'ReturnDisposition',
  ['restock', 'damaged'] as const,
  'What happened to a returned line on receipt: put back into a warehouse, or damaged (no stock moves).',
);
// Where a return's refund went: the refund's own destination enum (one name in the contract).
export const ReturnRefundMethodEnum = RefundDestinationEnum;
const RequestedViaEnum = defineEnum('ReturnRequestedVia', ['customer', 'staff'] as const, 'Who asked for the return: the customer through /me, or staff.');

const ReturnLineRef = builder.objectRef<ReturnLineView>('OrderReturnLine').implement({
  description: 'Units of one order line in a return.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    lineItemId: t.expose('lineItemId', { type: 'UUID', description: 'The order line' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    sku: t.exposeString('sku'),
    title: t.exposeString('title'),
    quantity: t.exposeInt('quantity'),
    disposition: t.field({ type: ReturnDispositionEnum, nullable: true, description: 'null until received', resolve: (l) => l.disposition as never }),
    warehouseId: t.expose('warehouseId', { type: 'UUID', nullable: true, description: 'Where a restocked line went; null until received, and for damaged lines' }),
  }),
});

const ExchangeLineRef = builder.objectRef<ExchangeLineView>('OrderReturnExchangeLine').implement({
  description: 'An outbound line of an exchange: what the customer gets instead, priced and reserved when the exchange was opened.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    sku: t.exposeString('sku'),
    title: t.exposeString('title'),
    quantity: t.exposeInt('quantity'),
    unitPrice: t.field({
      type: 'MinorUnits',
      description:
        "Catalog price in the order's currency and customer groups when the exchange was opened (or a price a manager agreed at the point of sale), as listed: with tax when the store's prices include it",
      resolve: (l) => l.unitPrice,
    }),
    totalPrice: t.expose('totalPrice', { type: 'MinorUnits', description: 'unitPrice × quantity' }),
    discountTotal: t.field({
      type: 'MinorUnits',
      description: "The line's share of a discount; 0: no promotion code of the original order is applied to its replacement",
      resolve: (l) => l.discountTotal,
    }),
    taxRateBps: t.exposeInt('taxRateBps', { description: "The tax rate applied, in basis points (2000 = 20 %), at the original order's address as checkout resolves it" }),
    taxTotal: t.field({
      type: 'MinorUnits',
      description:
        "Tax on totalPrice − discountTotal, computed as checkout computes it: added on top in a tax-exclusive store, contained in the price when the prices include tax (then nothing is added); it becomes the replacement order line's taxTotal",
      resolve: (l) => l.taxTotal,
    }),
    reservedQuantity: t.exposeInt('reservedQuantity', {
      description: "Units held for the line: its quantity while the exchange is open; 0 once released (rejected, cancelled, closed); the replacement order's once exchanged",
    }),
  }),
});

export const OrderReturnRef = builder.objectRef<ReturnView>('OrderReturn').implement({
  description: 'A return (RMA) of fulfilled units of an order.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    orderId: t.expose('orderId', { type: 'UUID' }),
    orderNumber: t.exposeString('orderNumber'),
    customerId: t.expose('customerId', { type: 'UUID', nullable: true, description: "The order's customer; null for a guest order" }),
    status: t.field({ type: ReturnStatusEnum, resolve: (r) => r.status as never }),
    reasonCode: t.field({ type: ReturnReasonEnum, resolve: (r) => r.reasonCode as never }),
    customerNote: t.exposeString('customerNote', { nullable: true }),
    staffNote: t.exposeString('staffNote', { nullable: true, description: "The note of staff's last decision (reject, receive, close, cancel)" }),
    requestedBy: t.exposeString('requestedBy', { nullable: true, description: 'User id of who asked for it' }),
    requestedVia: t.field({ type: RequestedViaEnum, resolve: (r) => r.requestedVia as never }),
    currency: t.exposeString('currency'),
    lines: t.expose('lines', { type: [ReturnLineRef] }),
    refundMethod: t.field({ type: ReturnRefundMethodEnum, nullable: true, description: 'null until refunded', resolve: (r) => r.refundMethod as never }),
    refundId: t.expose('refundId', { type: 'UUID', nullable: true, description: 'The order refund (GET /orders/:id/refunds) once refunded' }),
    refundAmount: t.expose('refundAmount', { type: 'MinorUnits', description: '0 until refunded' }),
    approvedAt: t.expose('approvedAt', { type: 'DateTime', nullable: true }),
    rejectedAt: t.expose('rejectedAt', { type: 'DateTime', nullable: true }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime', nullable: true }),
    refundedAt: t.expose('refundedAt', { type: 'DateTime', nullable: true }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true }),
    isExchange: t.exposeBoolean('isExchange', { description: 'true for an exchange (a return opened with exchangeLines)' }),
    exchangeLines: t.expose('exchangeLines', { type: [ExchangeLineRef], description: 'The outbound side of an exchange; empty for a plain return' }),
    exchangeOrderId: t.field({
      type: 'UUID',
      nullable: true,
      description: 'The replacement order of an exchange: its id is chosen when the exchange opens, the order exists once exchanged. null for a plain return',
      resolve: (r) => r.exchangeOrderId,
    }),
    exchangeTotal: t.field({
      type: 'MinorUnits',
      description:
        "What the replacement order costs, tax included (its grandTotal): Σ of the outbound lines' totalPrice − discountTotal, plus their taxTotal when prices exclude tax; 0 for a plain return",
      resolve: (r) => r.exchangeTotal,
    }),
    exchangeTaxTotal: t.field({
      type: 'MinorUnits',
      description: "Σ of the outbound lines' taxTotal (part of exchangeTotal in either tax mode); 0 for a plain return",
      resolve: (r) => r.exchangeTaxTotal,
    }),
    exchangeCredit: t.expose('exchangeCredit', { type: 'MinorUnits', description: "The returned lines' value credited toward the replacement; 0 until exchanged" }),
    exchangeDifference: t.field({
      type: 'MinorUnits',
      description: 'exchangeTotal − exchangeCredit once exchanged: positive was charged (exchangePaymentId), negative refunded (refundId); 0 until exchanged',
      resolve: (r) => r.exchangeDifference,
    }),
    exchangePaymentId: t.field({
      type: 'UUID',
      nullable: true,
      description: 'The payment of a positive difference, on the replacement order (GET /payments/:id)',
      resolve: (r) => r.exchangePaymentId,
    }),
    exchangedAt: t.expose('exchangedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
