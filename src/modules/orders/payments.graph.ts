// Order.payments: the order's payment records as they exist today. There is no payments table
// yet: an order carries one payment intent (provider, intent id, status and the captured and
// refunded amounts on the order row) and the provider events received for it (payment_events).
// The field is a list so that the payments table a later issue adds (several payments per order,
// split tenders) fills it without a breaking change. Events are batched: one statement per page.
import { builder } from '../../graphql/builder.js';
import { batchLoader, graphOnly, groupBy } from '../../graphql/loaders.js';
import { PaymentStatusEnum, OrderRef } from './types.js';
import type { OrderView } from './views.js';

interface PaymentEventView {
  eventId: string;
  type: string;
  outcome: string;
  receivedAt: Date;
}

interface OrderPaymentView {
  order: OrderView;
  provider: string;
  intentId: string | null;
}

const PaymentEventRef = builder.objectRef<PaymentEventView>('OrderPaymentEvent').implement({
  description: 'A payment-provider event received for the order (each event id is processed once).',
  fields: (t) => ({
    eventId: t.exposeString('eventId', { description: "The provider's event id, e.g. evt_..." }),
    type: t.exposeString('type', { description: "The provider's event type, e.g. payment_intent.succeeded (an open set: the provider's)" }),
    outcome: t.exposeString('outcome', { description: 'What it did: confirmed, paid, recorded, duplicate or ignored: <why>' }),
    receivedAt: t.field({ type: 'DateTime', resolve: (e) => e.receivedAt }),
  }),
});

const OrderPaymentRef = builder.objectRef<OrderPaymentView>('OrderPayment').implement({
  description: 'A payment of the order through the payment adapter: today one per order, its payment intent.',
  fields: (t) => ({
    provider: t.exposeString('provider', { description: 'The payment adapter, e.g. stripe or offline' }),
    intentId: t.exposeString('intentId', { nullable: true, description: "The provider's payment intent id" }),
    status: t.field({ type: PaymentStatusEnum, description: 'The order\'s payment state', resolve: (p) => p.order.paymentStatus as never }),
    currency: t.string({ resolve: (p) => p.order.currency }),
    amount: t.field({ type: 'MinorUnits', description: 'What the payment is for: the order grand total', resolve: (p) => p.order.grandTotal }),
    capturedAmount: t.field({ type: 'MinorUnits', description: 'What the provider confirmed as charged', resolve: (p) => p.order.capturedAmount }),
    refundedAmount: t.field({ type: 'MinorUnits', description: 'Refunds pending or paid out', resolve: (p) => p.order.refundedAmount }),
    events: t.field({
      type: [PaymentEventRef],
      description: 'Provider events received for this order, oldest first',
      resolve: (p, _args, ctx) =>
        batchLoader<PaymentEventView[]>(
          ctx,
          'orders.paymentEvents',
          async (ids) => {
            const rows = await ctx.db.paymentEvent.findMany({
              where: { organizationId: ctx.organization.id, orderId: { in: ids } },
              orderBy: [{ receivedAt: 'asc' }, { eventId: 'asc' }],
              select: { eventId: true, type: true, outcome: true, receivedAt: true, orderId: true },
            });
            // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
            return groupBy(rows, (r) => r.orderId!, (r) => ({ eventId: r.eventId, type: r.type, outcome: r.outcome, receivedAt: r.receivedAt }));
          },
          () => [],
        ).load(p.order.id),
    }),
  }),
});

builder.objectField(OrderRef, 'payments', (t) =>
  t.field({
    type: [OrderPaymentRef],
    description: 'Payments of the order: empty before one was started at the provider; today at most one (its payment intent)',
    resolve: (order) => (order.paymentProvider ? [{ order, provider: order.paymentProvider, intentId: order.paymentIntentId }] : []),
  }),
);
graphOnly('Order', 'payments');
