// The shapes orders hand out (GraphQL types and REST bodies are built from them) and the
// row → view mappers. Amounts are numbers of minor units (bigint in the database, always safe
// integers here), so the same view serializes into event payloads.
import { recipientOf, type GiftCardRecipient } from '../gift-cards/product.js';
import type { ShippingLineView } from '../shipping/line-view.js';
import type { Order, OrderFulfillment, OrderFulfillmentLine, OrderLine, OrderNote, OrderRefund, OrderRefundLine, Prisma } from '../../generated/prisma/client.js';
import { toNumber } from './shared.js';

type Json = Record<string, unknown>;

export interface OrderLineView {
  lineItemId: string;
  entityId: string;
  variantId: string | null;
  entityType: string;
  sku: string;
  title: string;
  quantity: number;
  refundedQuantity: number;
  fulfilledQuantity: number;
  fulfillmentStatus: string;
  unitPrice: number;
  /** unitPrice × quantity. */
  totalPrice: number;
  /** This line's share of the order's discounts. */
  discountTotal: number;
  taxClassId: string | null;
  taxRateBps: number;
  taxTotal: number;
  /** A gift-card line's recipient (null: the order email; absent on views not read from the row). */
  giftCardRecipient?: GiftCardRecipient | null;
}

export interface OrderView {
  id: string;
  number: string;
  status: string;
  paymentStatus: string;
  currency: string;
  customerId: string | null;
  customerEmail: string | null;
  subtotal: number;
  discountTotal: number;
  taxTotal: number;
  shippingTotal: number;
  grandTotal: number;
  capturedAmount: number;
  refundedAmount: number;
  shippingAddress: Json | null;
  promotionCodes: string[];
  customerGroupIds: string[];
  pricing: Json;
  paymentProvider: string | null;
  paymentIntentId: string | null;
  invoiceNumber: string | null;
  lineItems: OrderLineView[];
  /** Shipping (issue 25): present when already loaded (checkout); else Order.shippingLines loads them. */
  shippingLines?: ShippingLineView[];
  placedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export const ORDER_INCLUDE = { lines: { orderBy: { position: 'asc' } } } satisfies Prisma.OrderInclude;
export type OrderRow = Order & { lines: OrderLine[] };

export function lineView(row: OrderLine): OrderLineView {
  return {
    lineItemId: row.id,
    giftCardRecipient: recipientOf(row.giftCardRecipient),
    entityId: row.entityId,
    variantId: row.variantId,
    entityType: row.entityType,
    sku: row.sku,
    title: row.title,
    quantity: row.quantity,
    refundedQuantity: row.refundedQuantity,
    fulfilledQuantity: row.fulfilledQuantity,
    fulfillmentStatus: row.fulfillmentStatus,
    unitPrice: toNumber(row.unitPrice),
    totalPrice: toNumber(row.totalPrice),
    discountTotal: toNumber(row.discountTotal),
    taxClassId: row.taxClassId,
    taxRateBps: row.taxRateBps,
    taxTotal: toNumber(row.taxTotal),
  };
}

export function orderView(row: OrderRow): OrderView {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    paymentStatus: row.paymentStatus,
    currency: row.currency,
    customerId: row.customerId,
    customerEmail: row.customerEmail,
    subtotal: toNumber(row.subtotal),
    discountTotal: toNumber(row.discountTotal),
    taxTotal: toNumber(row.taxTotal),
    shippingTotal: toNumber(row.shippingTotal),
    grandTotal: toNumber(row.grandTotal),
    capturedAmount: toNumber(row.capturedAmount),
    refundedAmount: toNumber(row.refundedAmount),
    shippingAddress: (row.shippingAddress ?? null) as Json | null,
    promotionCodes: row.promotionCodes,
    customerGroupIds: row.customerGroupIds,
    pricing: (row.pricing ?? {}) as Json,
    paymentProvider: row.paymentProvider,
    paymentIntentId: row.paymentIntentId,
    invoiceNumber: row.invoiceNumber,
    lineItems: row.lines.map(lineView),
    placedAt: row.placedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The order as event payloads carry it (JSON: dates as ISO strings). */
export type OrderPayload = Omit<OrderView, 'placedAt' | 'createdAt' | 'updatedAt'> & { placedAt: string; createdAt: string; updatedAt: string };

export function orderPayload(view: OrderView): OrderPayload {
  return { ...view, placedAt: view.placedAt.toISOString(), createdAt: view.createdAt.toISOString(), updatedAt: view.updatedAt.toISOString() };
}

// ── notes ──

export interface NoteView {
  id: string;
  orderId: string;
  body: string;
  pinned: boolean;
  authorId: string | null;
  createdAt: Date;
}

export function noteView(row: OrderNote): NoteView {
  return { id: row.id, orderId: row.orderId, body: row.body, pinned: row.pinned, authorId: row.authorId, createdAt: row.createdAt };
}

// ── refunds ──

export interface RefundLineView {
  lineItemId: string;
  quantity: number;
  amount: number;
}

export interface RefundView {
  id: string;
  orderId: string;
  amount: number;
  shippingAmount: number;
  currency: string;
  reason: string | null;
  status: string;
  operatorId: string;
  lines: RefundLineView[];
  undoDeadline: Date;
  undoneAt: Date | null;
  undoneBy: string | null;
  settledAt: Date | null;
  providerRefundId: string | null;
  failureReason: string | null;
  /** original_payment or store_credit. */
  destination: string;
  createdAt: Date;
}

export function refundView(row: OrderRefund & { lines: OrderRefundLine[] }): RefundView {
  return {
    id: row.id,
    orderId: row.orderId,
    amount: toNumber(row.amount),
    shippingAmount: toNumber(row.shippingAmount),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    operatorId: row.operatorId,
    lines: row.lines.map((line) => ({ lineItemId: line.lineId, quantity: line.quantity, amount: toNumber(line.amount) })),
    undoDeadline: row.undoDeadline,
    undoneAt: row.undoneAt,
    undoneBy: row.undoneBy,
    settledAt: row.settledAt,
    providerRefundId: row.providerRefundId,
    failureReason: row.failureReason,
    destination: row.destination,
    createdAt: row.createdAt,
  };
}

// ── fulfillments ──

export interface FulfillmentView {
  id: string;
  orderId: string;
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  lines: Array<{ lineItemId: string; quantity: number }>;
  createdBy: string | null;
  createdAt: Date;
}

export function fulfillmentView(row: OrderFulfillment & { lines: OrderFulfillmentLine[] }): FulfillmentView {
  return {
    id: row.id,
    orderId: row.orderId,
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    trackingUrl: row.trackingUrl,
    lines: row.lines.map((line) => ({ lineItemId: line.lineId, quantity: line.quantity })),
    createdBy: row.createdBy,
    createdAt: row.createdAt,
  };
}

export type FulfillmentPayload = Omit<FulfillmentView, 'createdAt'> & { createdAt: string; orderNumber: string };
