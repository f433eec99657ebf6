// POST /checkout: a cart becomes an order (service.ts).
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { money, withGraphqlInput } from '../../graphql/zod-args.js';
import { CheckoutMetaRef, OrderRef } from '../orders/types.js';
import { CART_TOKEN_HEADER } from '../carts/access.js';
import { checkout, type CheckoutResult } from './service.js';
import { PaymentRef } from '../payments/graph.js';

const CheckoutResultRef = builder.objectRef<CheckoutResult>('CheckoutResult').implement({
  description: 'The order created by checkout (data) and non-fatal hook errors (meta.hookErrors).',
  fields: (t) => ({
    data: t.expose('data', { type: OrderRef }),
    meta: t.expose('meta', { type: CheckoutMetaRef }),
    payment: t.field({
      type: PaymentRef,
      nullable: true,
      description:
        'The payment started for the order (null when there was nothing to pay). status requires_action: the storefront sends the shopper through nextAction, then POST /api/payments/{payment.id}/confirm',
      resolve: (r) => r.payment,
    }),
  }),
});

export const address = z
  .object({
    firstName: z.string().max(100).optional(),
    lastName: z.string().max(100).optional(),
    company: z.string().max(200).optional(),
    line1: z.string().min(1).max(200),
    line2: z.string().max(200).optional(),
    city: z.string().min(1).max(100),
    state: z.string().max(100).optional(),
    postalCode: z.string().min(1).max(20),
    country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US'),
    phone: z.string().max(50).optional(),
  })
  .strict()
  .describe('A postal address; line1, city, postalCode and country are required (422 naming the missing field otherwise)');
withGraphqlInput(address, 'AddressInput');

defineOperation({
  name: 'checkout',
  kind: 'mutation',
  summary: 'Create an order from a cart',
  description:
    'In one transaction: re-prices every line (never the cart snapshots), applies promotionCodes, taxes each line by its tax class, adds ' +
    'shipping (settings shipping.flatRate, free from shipping.freeOver), reserves stock (concurrent checkouts never oversell), runs ' +
    'checkout.beforeCreate hooks (which may veto), authorizes paymentMethodId through the payment provider (config payments.provider, or ' +
    'paymentProvider among the enabled ones) — captured at once, or only authorized when the capture mode (settings payments.capture, or ' +
    'captureMode at a staff checkout) is manual or on_fulfilment — and numbers the order ORD-YYYY-NNNNNN. The answer carries the payment record ' +
    "(payment). The order stays pending (paymentStatus awaiting_payment) until the provider's event confirms it (payment_intent.succeeded, or " +
    'amount_capturable_updated for an authorization). A card that needs 3-D Secure (or a redirect method) answers 201 with payment.status ' +
    "requires_action and payment.nextAction; the order keeps its stock reserved until the action completes (the provider's event, or POST " +
    '/api/payments/{id}/confirm) or settings payments.actionExpiryMinutes (default 30) pass, which cancels it. Any failure — an unsellable or unpriced item, a refused code, missing stock, a declined card, a veto — is 422 ' +
    'CHECKOUT_FAILED with the reason in error.details.reason, and nothing is kept. With idempotencyKey, a replay by the same caller ' +
    'returns the original order with 200 and charges nothing. After-hook (orders.afterCreate) failures are listed in meta.hookErrors. ' +
    `Anonymous shoppers may check out a guest cart (with its ${CART_TOKEN_HEADER} header); signed-in callers need orders:create; ` +
    'naming another customer needs orders:create:on-behalf. giftCardCodes and useStoreCredit / storeCreditAmount pay first, in the same ' +
    'transaction (each a payment record, provider gift_card or store_credit); the provider charges the rest, and nothing when they cover ' +
    'the total (the order is then confirmed and paid at once; paymentMethodId is still required but unused). Emits orders.create.',
  rest: { method: 'POST', path: '/checkout', status: 201, otherStatuses: [200] },
  access: 'public',
  input: {
    cartId: z.guid(),
    paymentMethodId: z.string().min(1).max(255).describe('Payment method id of the provider, e.g. pm_card_visa'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD')
      .describe('Must be the cart currency'),
    customerId: z.guid().optional().describe("The customer ordering (their account's user id, as Customer.id); staff acting for customers only"),
    customerGroupIds: z
      .array(z.string().min(1).max(64))
      .max(50)
      .optional()
      .describe('Group prices to apply; accepted from API keys and staff acting for customers only (403 otherwise)'),
    promotionCodes: z.array(z.string().min(1).max(64)).max(20).optional(),
    shippingAddress: address,
    shippingMethodId: z
      .guid()
      .nullable()
      .optional()
      .describe("Shipping method (one of GET /carts/:id/shipping-options); default the cart's. Required when the cart has shippable items and a method serves the address"),
    email: z.email().max(254).optional().describe("Guest orders: the customer's email address (invoices are sent there)"),
    giftCardCodes: z
      .array(z.string().trim().min(4).max(64))
      .max(10)
      .optional()
      .describe(
        'Gift cards that pay first (partial redemption: each pays up to its balance); the provider charges the rest. A disabled, expired, unknown or other-currency card is 422 CHECKOUT_FAILED (details.step tenders); an empty one 422 with details.code CONFLICT',
      ),
    useStoreCredit: z
      .boolean()
      .optional()
      .describe("Pay with as much of the customer's store credit (in the order currency) as the order needs after gift cards; needs a customer"),
    storeCreditAmount: money()
      .min(1, 'must be > 0')
      .optional()
      .describe('Pay exactly this much store credit (minor units) after gift cards; a short balance is 422 CHECKOUT_FAILED with details.code CONFLICT'),
    idempotencyKey: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe(
        'Replays with the same key and the same request return the original order; the same key with a different request is 422 IDEMPOTENCY_KEY_REUSED. The Idempotency-Key header works too',
      ),
    paymentProvider: z
      .string()
      .min(1)
      .max(50)
      .optional()
      .describe('One of the enabled payment providers (config payments.enabled); default the configured one. Unknown or not enabled: 422'),
    captureMode: z
      .enum(['automatic', 'manual', 'on_fulfilment'])
      .optional()
      .describe("Staff checkouts only (payments:manage or orders:create:on-behalf; 403 otherwise): this order's capture mode instead of settings payments.capture"),
    returnUrl: z.url().max(2000).optional().describe("Where a 3-D Secure / redirect method brings the shopper back (the storefront's page); default this server's origin"),
  },
  output: CheckoutResultRef,
  paginated: true,
  resolve: (ctx, input) => checkout(ctx, input),
});
