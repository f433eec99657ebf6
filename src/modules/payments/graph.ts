// GraphQL types of payment records: Payment (Order.payments, the checkout answer's `payment`, the
// capture / void / confirm answers), its nextAction and the provider events received for it.
// Order.payments resolves through a batch loader (one statement per page whatever its size);
// over REST it is an embed: null unless the order route is asked `include=payments`.
import { builder } from '../../graphql/builder.js';
import { embedField } from '../../graphql/cost.js';
import { defineEnum } from '../../graphql/enums.js';
import { batchLoader, groupBy, viaRestFacade } from '../../graphql/loaders.js';
import { validationFailed } from '../../errors.js';
import { OrderRef } from '../orders/types.js';
import type { OrderView } from '../orders/views.js';
import { PAYMENT_STATUSES, type PaymentNextAction } from './provider.js';
import { isPaymentWrittenNow, paymentView, type PaymentView } from './records.js';

export const PaymentRecordStatusEnum = defineEnum('PaymentRecordStatus', PAYMENT_STATUSES, 'State of one payment record.', {
  pending: 'Sent to the provider; its confirmation (event) has not arrived',
  requires_action: 'The shopper must act (3-D Secure, a redirect): see nextAction',
  authorized: 'Authorized, nothing captured yet',
  partially_captured: 'Part of the authorization captured; the rest can still be captured',
  captured: 'Captured (in full, or what was captured when the rest was released)',
  voided: 'The authorization was released (void, cancellation, expiry) with nothing captured',
  failed: 'Declined, authentication failed or abandoned',
  refunded: 'Everything captured was refunded',
  partially_refunded: 'Part of what was captured was refunded',
});
export const CaptureModeEnum = defineEnum('CaptureMode', ['automatic', 'manual', 'on_fulfilment'] as const, 'When an authorization is captured.', {
  automatic: 'With the authorization, at checkout',
  manual: 'By staff: POST /api/orders/:id/capture',
  on_fulfilment: "The whole remaining authorization when the order's first fulfilment is recorded",
});
const NextActionTypeEnum = defineEnum('PaymentNextActionType', ['redirect', 'sdk'] as const, 'What the storefront does with a payment that requires action.', {
  redirect: "Send the shopper's browser to url",
  sdk: "Hand clientSecret to the provider's client SDK (Stripe.js handleNextAction)",
});

const NextActionRef = builder.objectRef<PaymentNextAction>('PaymentNextAction').implement({
  description: 'What the shopper must do before the payment completes; afterwards POST /api/payments/:id/confirm with the return parameters.',
  fields: (t) => ({
    type: t.expose('type', { type: NextActionTypeEnum }),
    url: t.string({ nullable: true, description: 'redirect: where to send the shopper', resolve: (a) => (a.type === 'redirect' ? a.url : null) }),
    clientSecret: t.string({ nullable: true, description: "sdk: the secret the provider's client SDK takes", resolve: (a) => (a.type === 'sdk' ? a.clientSecret : null) }),
  }),
});

interface PaymentEventView {
  eventId: string;
  type: string;
  outcome: string;
  receivedAt: Date;
}

const PaymentEventRef = builder.objectRef<PaymentEventView>('OrderPaymentEvent').implement({
  description: 'A payment-provider event received for the payment (each event id is processed once).',
  fields: (t) => ({
    eventId: t.exposeString('eventId', { description: "The provider's event id, e.g. evt_..." }),
    type: t.exposeString('type', { description: "The provider's event type, e.g. payment_intent.succeeded (an open set: the provider's)" }),
    outcome: t.exposeString('outcome', { description: 'What it did: confirmed, paid, authorized, failed, voided, expired, recorded, duplicate or ignored: <why>' }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
  }),
});

export const PaymentRef = builder.objectRef<PaymentView>('Payment').implement({
  description: 'One payment of an order through a payment provider (an order may have several).',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    orderId: t.expose('orderId', { type: 'UUID' }),
    provider: t.exposeString('provider', { description: 'The provider, e.g. stripe or offline' }),
    method: t.exposeString('method', { nullable: true, description: "The provider's payment method id or type, e.g. pm_card_visa" }),
    status: t.expose('status', { type: PaymentRecordStatusEnum }),
    captureMode: t.field({ type: CaptureModeEnum, resolve: (p) => p.captureMode as never }),
    currency: t.exposeString('currency'),
    amount: t.expose('amount', { type: 'MinorUnits', description: 'What the payment is for' }),
    authorizedAmount: t.expose('authorizedAmount', { type: 'MinorUnits' }),
    capturedAmount: t.expose('capturedAmount', { type: 'MinorUnits' }),
    capturableAmount: t.expose('capturableAmount', { type: 'MinorUnits', description: 'Authorized and not captured yet' }),
    refundedAmount: t.expose('refundedAmount', { type: 'MinorUnits', description: 'Refunds paid out against this payment' }),
    providerReference: t.exposeString('providerReference', { nullable: true, description: "The provider's id of the payment (Stripe: the PaymentIntent id, not a UUID)" }),
    intentId: t.string({ nullable: true, description: 'Same as providerReference (the name before payment records)', resolve: (p) => p.providerReference }),
    nextAction: t.field({
      type: NextActionRef,
      nullable: true,
      description: 'requires_action: what the shopper must do',
      resolve: (p) => (p.status === 'requires_action' ? p.nextAction : null),
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When the authorization lapses, if the provider said' }),
    expired: t.exposeBoolean('expired', { description: 'The provider reported the authorization expired' }),
    failureCode: t.exposeString('failureCode', { nullable: true }),
    failureMessage: t.exposeString('failureMessage', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    events: t.field({
      type: [PaymentEventRef],
      description: 'Provider events received for this payment, oldest first',
      resolve: (p, _args, ctx) =>
        isPaymentWrittenNow(p)
          ? []
          : batchLoader<PaymentEventView[]>(
              ctx,
              'payments.events',
              async (ids) => {
                const rows = await ctx.db.paymentEvent.findMany({
                  where: { organizationId: ctx.organization.id, paymentId: { in: ids } },
                  orderBy: [{ receivedAt: 'asc' }, { eventId: 'asc' }],
                  select: { eventId: true, type: true, outcome: true, receivedAt: true, paymentId: true },
                });
                return groupBy(
                  rows,
                  // biome-ignore lint/style/noNonNullAssertion: the query selects paymentId in ids, so it is never null here
                  (r) => r.paymentId!,
                  (r) => ({ eventId: r.eventId, type: r.type, outcome: r.outcome, receivedAt: r.receivedAt }),
                );
              },
              () => [],
            ).load(p.id),
    }),
  }),
});

/** Order views whose REST answer embeds payments (include=payments). */
const includesPayments = new WeakSet<object>();
const ORDER_INCLUDES = ['payments'];

/** Marks the views of an order read for `include` (REST); 422 for an unknown name. */
export function withOrderIncludes<T>(result: T, include: string | undefined): T {
  const names = (include ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !ORDER_INCLUDES.includes(name));
  if (unknown.length) throw validationFailed([{ field: 'include', message: `unknown include ${unknown.join(', ')}; valid: ${ORDER_INCLUDES.join(', ')}` }]);
  if (names.includes('payments')) {
    const views = (result as { data?: unknown }).data;
    for (const view of Array.isArray(views) ? views : [result]) includesPayments.add(view as object);
  }
  return result;
}

builder.objectField(OrderRef, 'payments', (t) =>
  t.field({
    type: [PaymentRef],
    nullable: true,
    extensions: embedField('payments'),
    description: 'Payments of the order, oldest first (empty before one was started). Over REST: include=payments (null otherwise)',
    resolve: (order: OrderView, _args, ctx) => {
      if (viaRestFacade(ctx) && !includesPayments.has(order)) return null;
      return batchLoader<PaymentView[]>(
        ctx,
        'orders.payments',
        async (ids) => {
          const rows = await ctx.db.payment.findMany({ where: { organizationId: ctx.organization.id, orderId: { in: ids } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
          return groupBy(rows, (r) => r.orderId, paymentView);
        },
        () => [],
      ).load(order.id);
    },
  }),
);
