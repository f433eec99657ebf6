// GraphQL output types of draft orders. REST bodies are the same objects.
import { builder } from '../../graphql/builder.js';
import { AddressRef, type AddressView } from '../../graphql/address.js';
import { defineEnum } from '../../graphql/enums.js';
import { TimelineActorRef } from '../orders/types.js';
import type { DraftLine, DraftView } from './views.js';

const DraftOrderStatusEnum = defineEnum('DraftOrderStatus', ['open', 'completed'] as const, 'open (editable) → completed (an order was created from it).');

const DraftLineRef = builder.objectRef<DraftLine>('DraftOrderLine').implement({
  fields: (t) => ({
    entityId: t.field({ type: 'UUID', resolve: (l) => l.entityId }),
    variantId: t.field({ type: 'UUID', nullable: true, resolve: (l) => l.variantId }),
    quantity: t.exposeInt('quantity'),
    unitPrice: t.field({ type: 'MinorUnits', nullable: true, description: "A custom unit price; null: the price list's price at completion", resolve: (l) => l.unitPrice }),
    priceReason: t.exposeString('priceReason', { nullable: true, description: 'Why the custom price' }),
  }),
});

const DraftDiscountRef = builder.objectRef<DraftView['discount']>('DraftOrderDiscount').implement({
  fields: (t) => ({
    amount: t.field({ type: 'MinorUnits', description: 'A manual discount on the order, spread over the lines by value', resolve: (d) => d.amount }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

export const DraftOrderRef = builder.objectRef<DraftView>('DraftOrder').implement({
  description: 'An order staff are building for a customer or a guest email; completed into a real order.',
  fields: (t) => ({
    id: t.field({ type: 'UUID', resolve: (d) => d.id }),
    status: t.field({ type: DraftOrderStatusEnum, resolve: (d) => d.status }),
    customerId: t.field({ type: 'UUID', nullable: true, description: "The customer (their account's user id)", resolve: (d) => d.customerId }),
    email: t.exposeString('email', { nullable: true, description: 'The guest email (customers use their account address)' }),
    currency: t.exposeString('currency'),
    lines: t.field({ type: [DraftLineRef], resolve: (d) => d.lines }),
    discount: t.field({ type: DraftDiscountRef, resolve: (d) => d.discount }),
    shippingAddress: t.field({ type: AddressRef, nullable: true, resolve: (d) => d.shippingAddress as AddressView | null }),
    shippingMethodId: t.field({ type: 'UUID', nullable: true, resolve: (d) => d.shippingMethodId }),
    note: t.exposeString('note', { nullable: true }),
    orderId: t.field({ type: 'UUID', nullable: true, description: 'The order it became (completed)', resolve: (d) => d.orderId }),
    createdBy: t.field({ type: TimelineActorRef, resolve: (d) => d.createdBy }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (d) => d.updatedAt }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.completedAt }),
  }),
});
