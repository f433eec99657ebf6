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
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    quantity: t.exposeInt('quantity'),
    unitPrice: t.expose('unitPrice', { type: 'MinorUnits', nullable: true, description: "A custom unit price; null: the price list's price at completion" }),
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
    amount: t.expose('amount', { type: 'MinorUnits', description: 'A manual discount on the order, spread over the lines by value' }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

export const DraftOrderRef = builder.objectRef<DraftView>('DraftOrder').implement({
  description: 'An order staff are building for a customer or a guest email; completed into a real order.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    status: t.expose('status', { type: DraftOrderStatusEnum, description: 'open, sent or completed' }),
    customerId: t.expose('customerId', { type: 'UUID', nullable: true, description: "The customer (their account's user id)" }),
    email: t.exposeString('email', { nullable: true, description: 'The guest email (customers use their account address)' }),
    currency: t.exposeString('currency'),
    lines: t.expose('lines', { type: [DraftLineRef], description: 'The lines, in order' }),
    discount: t.expose('discount', { type: DraftDiscountRef, description: 'The manual discount (amount 0: none)' }),
    shippingAddress: t.field({ type: AddressRef, nullable: true, resolve: (d) => d.shippingAddress as AddressView | null }),
    shippingMethodId: t.expose('shippingMethodId', { type: 'UUID', nullable: true }),
    note: t.exposeString('note', { nullable: true }),
    orderId: t.expose('orderId', { type: 'UUID', nullable: true, description: 'The order it became (completed)' }),
    createdBy: t.expose('createdBy', { type: TimelineActorRef, description: 'Who created the draft' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    sentTo: t.exposeString('sentTo', { nullable: true, description: 'The address the payment link was last emailed to' }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: true, description: 'When the payment link was last emailed' }),
    linkExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Until when the payment link works (null: no live link — never sent, or edited since)',
      resolve: (d) => d.linkExpiresAt,
    }),
  }),
});
