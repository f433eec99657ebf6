// GraphQL output types of draft payment links (link.ts). REST bodies are the same objects.
import { builder } from '../../graphql/builder.js';
import { OrderRef } from '../orders/types.js';
import { PaymentRef } from '../payments/graph.js';
import type { DraftLinkCheckoutResult, DraftLinkLine, DraftLinkView } from './link.js';

const DraftLinkLineRef = builder.objectRef<DraftLinkLine>('DraftOrderLinkLine').implement({
  description: 'A line of a payment link: what the shopper pays for.',
  fields: (t) => ({
    title: t.exposeString('title', { description: "The item's title" }),
    sku: t.exposeString('sku', { nullable: true }),
    quantity: t.exposeInt('quantity'),
    unitPrice: t.expose('unitPrice', { type: 'MinorUnits', description: "The unit price charged (the draft's custom price, else today's price)" }),
    totalPrice: t.expose('totalPrice', { type: 'MinorUnits', description: 'The line total before tax, after its share of the discount' }),
  }),
});

export const DraftLinkRef = builder.objectRef<DraftLinkView>('DraftOrderLink').implement({
  description: "A draft order's payment link as the shopper sees it: the lines and totals its checkout charges.",
  fields: (t) => ({
    currency: t.exposeString('currency'),
    lines: t.expose('lines', { type: [DraftLinkLineRef], description: 'The lines, in order' }),
    subtotal: t.expose('subtotal', { type: 'MinorUnits' }),
    discountTotal: t.expose('discountTotal', { type: 'MinorUnits' }),
    shippingTotal: t.expose('shippingTotal', { type: 'MinorUnits' }),
    taxTotal: t.expose('taxTotal', { type: 'MinorUnits' }),
    grandTotal: t.expose('grandTotal', { type: 'MinorUnits' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'Until when the link works' }),
  }),
});

export const DraftLinkCheckoutRef = builder.objectRef<DraftLinkCheckoutResult>('DraftOrderLinkCheckout').implement({
  description: 'The order a paid payment link became, and the payment started for it.',
  fields: (t) => ({
    order: t.expose('order', { type: OrderRef, description: 'The order the draft became (pending until the payment confirms it)' }),
    payment: t.field({
      type: PaymentRef,
      nullable: true,
      description: 'The payment started (null when there was nothing to pay). status requires_action: send the shopper through nextAction',
      resolve: (r) => r.payment,
    }),
  }),
});
