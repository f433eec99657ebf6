// Draft order operations (issue 27). Permission drafts:manage (staff and admins): a draft sets
// its own prices, so orders:create — which storefronts and shoppers hold to check out — is not
// enough. State table: service.ts.
import { z } from 'zod';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { money, pageInput, withGraphqlInput } from '../../graphql/zod-args.js';
import { address } from '../checkout/schema.js';
import { giftCardRecipientInput } from '../gift-cards/recipient-input.js';
import { OrderRef } from '../orders/types.js';
import { completeDraft } from './complete.js';
import { DRAFT_LINK_MAX_TTL_DAYS, DRAFT_LINK_PATH, DRAFT_LINK_TTL_DAYS, draftLink, draftLinkCheckout, sendDraft } from './link.js';
import { DraftLinkCheckoutRef, DraftLinkRef } from './link.types.js';
import { createDraft, deleteDraft, DRAFT_NOTE_MAX, DRAFT_REASON_MAX, getDraft, listDrafts, updateDraft } from './service.js';
import { DraftOrderRef } from './types.js';
import type { DraftView } from './views.js';

const PERMISSION = 'drafts:manage';
const line = withGraphqlInput(
  z
    .object({
      entityId: z.guid(),
      variantId: z.guid().optional(),
      quantity: z.number().int().positive().max(10_000),
      unitPrice: money().optional().describe("A custom unit price, minor units (needs priceReason); default the price list's price at completion"),
      priceReason: z.string().min(1).max(DRAFT_REASON_MAX).optional().describe('Why the custom unitPrice (required with it)'),
      giftCardRecipient: giftCardRecipientInput.optional(),
    })
    .strict()
    .describe('A draft line'),
  'DraftOrderLineInput',
);
const discount = withGraphqlInput(
  z
    .object({ amount: money(), reason: z.string().max(DRAFT_REASON_MAX).optional() })
    .strict()
    .describe('A manual discount, minor units'),
  'DraftOrderDiscountInput',
);
const fields = {
  customerId: z.guid().optional().describe("The customer (their account's user id)"),
  email: z.email().max(254).optional().describe('A guest email, when there is no customerId'),
  discount: discount.optional(),
  shippingAddress: address.optional(),
  shippingMethodId: z.guid().optional(),
  note: z.string().max(DRAFT_NOTE_MAX).optional(),
};
const GIFT_CARD_LINES =
  'A gift-card product (entity type giftCard) may name a giftCardRecipient (any other line: 422); its line reserves no stock, and once the order is paid its cards are issued and emailed (to the recipient, else the order email).';
const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD');
const audit = { entityType: 'draft_order', entityId: (_input: unknown, draft: unknown) => (draft as DraftView).id };
const moves =
  'open → sent (POST /draft-orders/:id/send: a payment link emailed; again: a new link, the old one dies) → completed (POST /draft-orders/:id/complete, or the ' +
  'shopper paying through the link). PATCH and DELETE while open or sent; a PATCH of a sent draft moves it back to open and kills its link. A completed draft is 409 ' +
  '(details.reason INVALID_TRANSITION).';

defineOperation({
  name: 'draftOrderCreate',
  kind: 'mutation',
  summary: 'Create a draft order for a customer or a guest email',
  description: `Lines may carry a custom unitPrice with a priceReason (422 without one). ${GIFT_CARD_LINES} Nothing is reserved or charged until completion. ${moves}`,
  rest: { method: 'POST', path: '/draft-orders', status: 201 },
  access: { permission: PERMISSION },
  input: { currency, lines: z.array(line).min(1).max(200).describe('The lines, in order'), ...fields },
  output: DraftOrderRef,
  resolve: (ctx, input) => createDraft(ctx, input),
  audit: { event: 'drafts.create', ...audit },
});

defineOperation({
  name: 'draftOrders',
  kind: 'query',
  summary: 'List draft orders, newest first',
  rest: { method: 'GET', path: '/draft-orders' },
  access: { permission: PERMISSION },
  input: { status: z.enum(['open', 'sent', 'completed']).optional().describe('open, sent or completed; default all'), ...pageInput(20, 100) },
  output: pageOf('DraftOrder', DraftOrderRef),
  paginated: true,
  resolve: (ctx, input) => listDrafts(ctx, input),
});

defineOperation({
  name: 'draftOrder',
  kind: 'query',
  summary: 'Get one draft order',
  rest: { method: 'GET', path: '/draft-orders/:id' },
  access: { permission: PERMISSION },
  input: { id: z.guid() },
  output: DraftOrderRef,
  resolve: (ctx, input) => getDraft(ctx, input.id),
});

defineOperation({
  name: 'draftOrderUpdate',
  kind: 'mutation',
  summary: 'Change an open draft order',
  description: `Replaces the fields given (lines as a whole). ${GIFT_CARD_LINES} ${moves}`,
  rest: { method: 'PATCH', path: '/draft-orders/:id' },
  access: { permission: PERMISSION },
  input: { id: z.guid(), currency: currency.optional(), lines: z.array(line).min(1).max(200).optional().describe('Replaces every line'), ...fields },
  output: DraftOrderRef,
  resolve: (ctx, input) => updateDraft(ctx, input.id, input),
  audit: { event: 'drafts.update', ...audit },
});

defineOperation({
  name: 'draftOrderDelete',
  kind: 'mutation',
  summary: 'Delete an open draft order; answers the deleted draft',
  description: moves,
  rest: { method: 'DELETE', path: '/draft-orders/:id' },
  access: { permission: PERMISSION },
  input: { id: z.guid() },
  output: DraftOrderRef,
  resolve: (ctx, input) => deleteDraft(ctx, input.id),
  audit: { event: 'drafts.delete', ...audit },
});

defineOperation({
  name: 'draftOrderComplete',
  kind: 'mutation',
  summary: 'Turn an open draft into a real order',
  description:
    "Prices the draft through checkout's path (custom unit prices and the manual discount as given, other lines at today's prices, shipping and tax " +
    'recomputed), reserves the stock (409 when it is missing) and writes the order as checkout does (ORD- number, orders.create). With ' +
    'paymentPending: true (invoice terms) nothing is charged and the order stays pending, awaiting payment; otherwise paymentMethodId is authorized ' +
    "through the configured payment provider exactly as at checkout (settings payments.capture; a payment record; the provider's event confirms the " +
    `order) — a decline is 422 naming it, an unreachable provider 503. ${moves}`,
  rest: { method: 'POST', path: '/draft-orders/:id/complete', status: 201 },
  access: { permission: PERMISSION },
  input: {
    id: z.guid(),
    paymentPending: z.boolean().optional().describe('Invoice terms: charge nothing, the order stays pending awaiting payment'),
    paymentMethodId: z.string().min(1).max(255).optional().describe('Payment method id of the provider; required unless paymentPending'),
  },
  output: OrderRef,
  resolve: (ctx, input) => completeDraft(ctx, input.id, input),
  audit: { event: 'drafts.complete', entityType: 'draft_order', entityId: (input) => input.id },
});

defineOperation({
  name: 'draftOrderSend',
  kind: 'mutation',
  summary: 'Email the customer a payment link for the draft',
  description:
    "Emails the customer (their account address, or the draft's guest email) a link that opens a checkout for exactly the draft's lines and prices " +
    `(GET /api${DRAFT_LINK_PATH}/{token}; paying: POST /api${DRAFT_LINK_PATH}/{token}/checkout). The draft is priced first, so a draft its checkout would ` +
    'refuse (no shipping address, an unpriced item) is 422 here. The link is an unguessable token stored only as a hash; it works once, until ' +
    'linkExpiresAt. Sending again replaces it (the old link answers 404); editing the draft kills it. Nothing is reserved or charged until the ' +
    `shopper pays. A mail that cannot be sent is 503 and changes nothing. ${moves}`,
  rest: { method: 'POST', path: '/draft-orders/:id/send' },
  access: { permission: PERMISSION },
  input: {
    id: z.guid(),
    expiresInDays: z.number().int().min(1).max(DRAFT_LINK_MAX_TTL_DAYS).optional().describe(`Days the link works; default ${DRAFT_LINK_TTL_DAYS}`),
  },
  output: DraftOrderRef,
  resolve: (ctx, input) => sendDraft(ctx, input.id, input),
  audit: { event: 'drafts.send', ...audit },
});

const token = z.string().min(20).max(100).describe('The token of the emailed payment link');

defineOperation({
  name: 'draftOrderLink',
  kind: 'query',
  summary: "A draft's payment link: the lines and totals its checkout charges",
  description:
    "Public: the token is the credential (and each call spends the caller's guess budget). 404 for an unknown token or one a re-send or an edit " +
    'replaced (details.reason LINK_UNKNOWN), an expired one (LINK_EXPIRED) and a used one (LINK_USED: the order exists).',
  rest: { method: 'GET', path: `${DRAFT_LINK_PATH}/:token` },
  tag: 'draft-orders',
  access: 'public',
  input: { token },
  output: DraftLinkRef,
  guessable: true,
  resolve: (ctx, input) => draftLink(ctx, input.token),
});

defineOperation({
  name: 'draftOrderLinkCheckout',
  kind: 'mutation',
  summary: 'Pay a payment link: the draft becomes an order',
  description:
    "Public: the token is the credential. Completes the draft exactly as POST /draft-orders/:id/complete does — the draft's lines and custom " +
    'prices, its manual discount, shipping and tax computed, stock reserved only now (409 when it is missing) — and authorizes paymentMethodId ' +
    'through the configured payment provider as checkout does (a decline is 422, nothing kept and the link still works). The answer carries the ' +
    'order and the payment started (status requires_action: send the shopper through payment.nextAction). The link works once: a second call is ' +
    '409; an unknown, replaced or expired link is 404 (details.reason LINK_UNKNOWN, LINK_EXPIRED).',
  rest: { method: 'POST', path: `${DRAFT_LINK_PATH}/:token/checkout`, status: 201 },
  tag: 'draft-orders',
  access: 'public',
  input: {
    token,
    paymentMethodId: z.string().min(1).max(255).describe('Payment method id of the provider, e.g. pm_card_visa'),
    returnUrl: z.url().max(2000).optional().describe("Where a 3-D Secure / redirect method brings the shopper back; default this server's origin"),
  },
  output: DraftLinkCheckoutRef,
  guessable: true,
  resolve: (ctx, input) => draftLinkCheckout(ctx, input.token, input),
  audit: { event: 'drafts.linkCheckout', entityType: 'order', entityId: (_input, result) => result.order.id },
});
