// GraphQL output types of order edits. REST bodies are the same objects.
import { builder } from '../../graphql/builder.js';
import { AddressRef, type AddressView } from '../../graphql/address.js';
import { defineEnum } from '../../graphql/enums.js';
import { TimelineActorRef } from '../orders/types.js';
import type { EditOperations } from './plan.js';
import { EDIT_STATUSES, PAYMENT_ACTION_DESCRIPTIONS, PAYMENT_ACTIONS } from './status.js';
import type { EditLineView, EditSnapshot, EditView } from './views.js';

const OrderEditStatusEnum = defineEnum('OrderEditStatus', EDIT_STATUSES, 'pending (previewed) → confirmed (applied to the order) or cancelled.');
const OrderEditPaymentActionEnum = defineEnum(
  'OrderEditPaymentAction',
  PAYMENT_ACTIONS,
  "What confirming did with the payment: none (same total), refund (the difference refunded through the refund rules), awaiting_difference (paymentStatus partially_paid until the difference is paid), reissued_intent (nothing was captured: the old payment voided, the new total authorized, a new payment record), authorization_covers (the order's authorization covers the new total; its capture takes the new total).",
  PAYMENT_ACTION_DESCRIPTIONS,
);

const EditLineRef = builder.objectRef<EditLineView>('OrderEditLine').implement({
  description: 'A line of the order before or after an edit.',
  fields: (t) => ({
    lineItemId: t.expose('lineItemId', { type: 'UUID', nullable: true, description: 'null for a line the edit adds, until it is confirmed' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    sku: t.exposeString('sku'),
    title: t.exposeString('title'),
    quantity: t.exposeInt('quantity'),
    unitPrice: t.expose('unitPrice', { type: 'MinorUnits' }),
    totalPrice: t.expose('totalPrice', { type: 'MinorUnits', description: 'unitPrice × quantity' }),
    discountTotal: t.expose('discountTotal', { type: 'MinorUnits' }),
    taxTotal: t.expose('taxTotal', { type: 'MinorUnits' }),
  }),
});

const EditSnapshotRef = builder.objectRef<EditSnapshot>('OrderEditSnapshot').implement({
  description: "The order's lines, totals and address on one side of an edit.",
  fields: (t) => ({
    lineItems: t.expose('lineItems', { type: [EditLineRef], description: 'The lines, in order' }),
    subtotal: t.expose('subtotal', { type: 'MinorUnits' }),
    discountTotal: t.expose('discountTotal', { type: 'MinorUnits' }),
    taxTotal: t.expose('taxTotal', { type: 'MinorUnits' }),
    shippingTotal: t.expose('shippingTotal', { type: 'MinorUnits' }),
    grandTotal: t.expose('grandTotal', { type: 'MinorUnits' }),
    shippingAddress: t.field({ type: AddressRef, nullable: true, resolve: (s) => s.shippingAddress as AddressView | null }),
  }),
});

const EditAddLineRef = builder.objectRef<EditOperations['addLines'][number]>('OrderEditAddedLine').implement({
  description: 'A line the edit adds, priced today.',
  fields: (t) => ({
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    quantity: t.exposeInt('quantity'),
  }),
});

const EditQuantityRef = builder.objectRef<EditOperations['quantities'][number]>('OrderEditQuantity').implement({
  description: 'A new quantity the edit gives an order line.',
  fields: (t) => ({
    lineItemId: t.expose('lineItemId', { type: 'UUID' }),
    quantity: t.exposeInt('quantity'),
  }),
});

const EditOperationsRef = builder.objectRef<EditOperations>('OrderEditOperations').implement({
  description: 'What the edit asked for.',
  fields: (t) => ({
    addLines: t.expose('addLines', { type: [EditAddLineRef], description: 'Lines to add' }),
    removeLineIds: t.field({ type: ['UUID'], description: 'Line item ids to remove', resolve: (o) => o.removeLineIds }),
    quantities: t.expose('quantities', { type: [EditQuantityRef], description: 'New quantities of order lines' }),
    shippingAddress: t.field({ type: AddressRef, nullable: true, resolve: (o) => o.shippingAddress as AddressView | null }),
  }),
});

export const OrderEditRef = builder.objectRef<EditView>('OrderEdit').implement({
  description: 'An edit of an unfulfilled order: its operations, the order before, the previewed (then applied) order after, and the payment difference.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    orderId: t.expose('orderId', { type: 'UUID' }),
    status: t.expose('status', { type: OrderEditStatusEnum, description: 'pending, confirmed or cancelled' }),
    operations: t.expose('operations', { type: EditOperationsRef, description: 'What the edit asked for' }),
    before: t.expose('before', { type: EditSnapshotRef, description: 'The order when the edit was previewed' }),
    after: t.expose('after', { type: EditSnapshotRef, description: 'The previewed order; once confirmed, the order as applied (with the new line ids)' }),
    difference: t.expose('difference', { type: 'MinorUnits', description: 'after.grandTotal − before.grandTotal (negative: money goes back)' }),
    paymentAction: t.expose('paymentAction', { type: OrderEditPaymentActionEnum, nullable: true, description: 'Set when confirmed' }),
    refundId: t.expose('refundId', { type: 'UUID', nullable: true, description: 'The refund of the difference (paymentAction refund)' }),
    reason: t.exposeString('reason', { nullable: true }),
    createdBy: t.expose('createdBy', { type: TimelineActorRef, description: 'Who previewed the edit' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    decidedBy: t.expose('decidedBy', { type: TimelineActorRef, nullable: true, description: 'Who confirmed or cancelled it' }),
    decidedAt: t.expose('decidedAt', { type: 'DateTime', nullable: true }),
  }),
});
