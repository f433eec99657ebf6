// GraphQL output types of draft orders. REST bodies are the same objects.
import { builder } from '../../graphql/builder.js';
import { AddressRef, type AddressView } from '../../graphql/address.js';
import { defineEnum } from '../../graphql/enums.js';
import { TimelineActorRef } from '../orders/types.js';
import { GiftCardRecipientRef } from '../gift-cards/recipient-graph.js';
import type { DraftLine, DraftView } from './views.js';

const DraftOrderStatusEnum = defineEnum(
  'DraftOrderStatus',
  ['open', 'sent', 'completed'] as const,
  'open (editable) → sent (a payment link was emailed) → completed (an order was created from it).',
  {
    open: 'Being built: can be changed, deleted, sent or completed',
    sent: 'A payment link was emailed; the shopper completes it by paying. An edit moves it back to open and kills the link',
    completed: 'An order was created from it (orderId); it no longer moves',
  },
);

const DraftLineRef = builder.objectRef<DraftLine>('DraftOrderLine').implement({
  description: 'A line of a draft order.',
  fields: (t) => ({
    entityId: t.field({ type: 'UUID', resolve: (l) => l.entityId }),
    variantId: t.field({ type: 'UUID', nullable: true, resolve: (l) => l.variantId }),
    quantity: t.exposeInt('quantity'),
    unitPrice: t.field({ type: 'MinorUnits', nullable: true, description: "A custom unit price; null: the price list's price at completion", resolve: (l) => l.unitPrice }),
    priceReason: t.exposeString('priceReason', { nullable: true, description: 'Why the custom price' }),
    giftCardRecipient: t.field({
      type: GiftCardRecipientRef,
      nullable: true,
      description: 'Who receives the gift cards of a gift-card line (null: the order email)',
      resolve: (l) => l.giftCardRecipient ?? null,
    }),
  }),
});

const DraftDiscountRef = builder.objectRef<DraftView['discount']>('DraftOrderDiscount').implement({
  description: 'A manual discount staff gave the draft.',
  fields: (t) => ({
    amount: t.field({ type: 'MinorUnits', description: 'A manual discount on the order, spread over the lines by value', resolve: (d) => d.amount }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

export const DraftOrderRef = builder.objectRef<DraftView>('DraftOrder').implement({
  description: 'An order staff are building for a customer or a guest email; completed into a real order.',
  fields: (t) => ({
    id: t.field({ type: 'UUID', resolve: (d) => d.id }),
    status: t.field({ type: DraftOrderStatusEnum, description: 'open, sent or completed', resolve: (d) => d.status }),
    customerId: t.field({ type: 'UUID', nullable: true, description: "The customer (their account's user id)", resolve: (d) => d.customerId }),
    email: t.exposeString('email', { nullable: true, description: 'The guest email (customers use their account address)' }),
    currency: t.exposeString('currency'),
    lines: t.field({ type: [DraftLineRef], description: 'The lines, in order', resolve: (d) => d.lines }),
    discount: t.field({ type: DraftDiscountRef, description: 'The manual discount (amount 0: none)', resolve: (d) => d.discount }),
    shippingAddress: t.field({ type: AddressRef, nullable: true, resolve: (d) => d.shippingAddress as AddressView | null }),
    shippingMethodId: t.field({ type: 'UUID', nullable: true, resolve: (d) => d.shippingMethodId }),
    note: t.exposeString('note', { nullable: true }),
    orderId: t.field({ type: 'UUID', nullable: true, description: 'The order it became (completed)', resolve: (d) => d.orderId }),
    createdBy: t.field({ type: TimelineActorRef, description: 'Who created the draft', resolve: (d) => d.createdBy }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (d) => d.updatedAt }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.completedAt }),
    sentTo: t.exposeString('sentTo', { nullable: true, description: 'The address the payment link was last emailed to' }),
    sentAt: t.field({ type: 'DateTime', nullable: true, description: 'When the payment link was last emailed', resolve: (d) => d.sentAt }),
    linkExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Until when the payment link works (null: no live link — never sent, or edited since)',
      resolve: (d) => d.linkExpiresAt,
    }),
  }),
});
