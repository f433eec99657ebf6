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
    lineItemId: t.field({ type: 'UUID', nullable: true, description: 'null for a line the edit adds, until it is confirmed', resolve: (l) => l.lineItemId }),
    entityId: t.field({ type: 'UUID', resolve: (l) => l.entityId }),
    variantId: t.field({ type: 'UUID', nullable: true, resolve: (l) => l.variantId }),
    sku: t.exposeString('sku'),
    title: t.exposeString('title'),
    quantity: t.exposeInt('quantity'),
    unitPrice: t.field({ type: 'MinorUnits', resolve: (l) => l.unitPrice }),
    totalPrice: t.field({ type: 'MinorUnits', description: 'unitPrice × quantity', resolve: (l) => l.totalPrice }),
    discountTotal: t.field({ type: 'MinorUnits', resolve: (l) => l.discountTotal }),
    taxTotal: t.field({ type: 'MinorUnits', resolve: (l) => l.taxTotal }),
  }),
});

const EditSnapshotRef = builder.objectRef<EditSnapshot>('OrderEditSnapshot').implement({
  description: "The order's lines, totals and address on one side of an edit.",
  fields: (t) => ({
    lineItems: t.field({ type: [EditLineRef], description: 'The lines, in order', resolve: (s) => s.lineItems }),
    subtotal: t.field({ type: 'MinorUnits', resolve: (s) => s.subtotal }),
    discountTotal: t.field({ type: 'MinorUnits', resolve: (s) => s.discountTotal }),
    taxTotal: t.field({ type: 'MinorUnits', resolve: (s) => s.taxTotal }),
    shippingTotal: t.field({ type: 'MinorUnits', resolve: (s) => s.shippingTotal }),
    grandTotal: t.field({ type: 'MinorUnits', resolve: (s) => s.grandTotal }),
    shippingAddress: t.field({ type: AddressRef, nullable: true, resolve: (s) => s.shippingAddress as AddressView | null }),
  }),
});

const EditAddLineRef = builder.objectRef<EditOperations['addLines'][number]>('OrderEditAddedLine').implement({
  description: 'A line the edit adds, priced today.',
  fields: (t) => ({
    entityId: t.field({ type: 'UUID', resolve: (l) => l.entityId }),
    variantId: t.field({ type: 'UUID', nullable: true, resolve: (l) => l.variantId }),
    quantity: t.exposeInt('quantity'),
  }),
});

const EditQuantityRef = builder.objectRef<EditOperations['quantities'][number]>('OrderEditQuantity').implement({
  description: 'A new quantity the edit gives an order line.',
  fields: (t) => ({
    lineItemId: t.field({ type: 'UUID', resolve: (l) => l.lineItemId }),
    quantity: t.exposeInt('quantity'),
  }),
});

const EditOperationsRef = builder.objectRef<EditOperations>('OrderEditOperations').implement({
  description: 'What the edit asked for.',
  fields: (t) => ({
    addLines: t.field({ type: [EditAddLineRef], description: 'Lines to add', resolve: (o) => o.addLines }),
    removeLineIds: t.field({ type: ['UUID'], description: 'Line item ids to remove', resolve: (o) => o.removeLineIds }),
    quantities: t.field({ type: [EditQuantityRef], description: 'New quantities of order lines', resolve: (o) => o.quantities }),
    shippingAddress: t.field({ type: AddressRef, nullable: true, resolve: (o) => o.shippingAddress as AddressView | null }),
  }),
});

export const OrderEditRef = builder.objectRef<EditView>('OrderEdit').implement({
  description: 'An edit of an unfulfilled order: its operations, the order before, the previewed (then applied) order after, and the payment difference.',
  fields: (t) => ({
    id: t.field({ type: 'UUID', resolve: (e) => e.id }),
    orderId: t.field({ type: 'UUID', resolve: (e) => e.orderId }),
    status: t.field({ type: OrderEditStatusEnum, description: 'pending, confirmed or cancelled', resolve: (e) => e.status }),
    operations: t.field({ type: EditOperationsRef, description: 'What the edit asked for', resolve: (e) => e.operations }),
    before: t.field({ type: EditSnapshotRef, description: 'The order when the edit was previewed', resolve: (e) => e.before }),
    after: t.field({ type: EditSnapshotRef, description: 'The previewed order; once confirmed, the order as applied (with the new line ids)', resolve: (e) => e.after }),
    difference: t.field({ type: 'MinorUnits', description: 'after.grandTotal − before.grandTotal (negative: money goes back)', resolve: (e) => e.difference }),
    paymentAction: t.field({ type: OrderEditPaymentActionEnum, nullable: true, description: 'Set when confirmed', resolve: (e) => e.paymentAction }),
    refundId: t.field({ type: 'UUID', nullable: true, description: 'The refund of the difference (paymentAction refund)', resolve: (e) => e.refundId }),
    reason: t.exposeString('reason', { nullable: true }),
    createdBy: t.field({ type: TimelineActorRef, description: 'Who previewed the edit', resolve: (e) => e.createdBy }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.createdAt }),
    decidedBy: t.field({ type: TimelineActorRef, nullable: true, description: 'Who confirmed or cancelled it', resolve: (e) => e.decidedBy }),
    decidedAt: t.field({ type: 'DateTime', nullable: true, resolve: (e) => e.decidedAt }),
  }),
});
