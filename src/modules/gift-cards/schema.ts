// Gift card operations: POST /gift-cards, GET /gift-cards, GET /gift-cards/:id,
// POST /gift-cards/:id/disable, POST /gift-cards/:id/adjust, POST /gift-cards/lookup.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineEnum } from '../../graphql/enums.js';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { money, pageInput } from '../../graphql/zod-args.js';
import { notFound } from '../../errors.js';
import { currencySchema } from '../pricing/shared.js';
import { ENTRY_KINDS } from './ledger.js';
import {
  LIST_STATES,
  adjustGiftCard,
  disableGiftCard,
  findGiftCardView,
  getGiftCard,
  giftCardPayload,
  issueGiftCard,
  listGiftCards,
  lookupGiftCard,
  type GiftCardBalanceView,
  type GiftCardDetailView,
  type GiftCardEntryView,
  type GiftCardIssuedView,
  type GiftCardView,
} from './service.js';

const GiftCardStateEnum = defineEnum('GiftCardState', ['active', 'disabled', 'expired', 'empty'] as const, 'Where a gift card stands now.', {
  active: 'Enabled, not expired, with balance left: it can pay',
  disabled: 'Disabled by staff: it cannot pay (its balance stays)',
  expired: 'Past expiresAt: it cannot pay',
  empty: 'Enabled and not expired, with no balance left',
});
const GiftCardEntryKindEnum = defineEnum('GiftCardEntryKind', ENTRY_KINDS, 'A move of a gift card balance.', {
  issue: 'The card was issued with its initial balance',
  redeem: 'Paid (part of) an order',
  refund_credit: 'A refund of an order it paid put money back',
  adjust: 'A staff correction, up or down',
  expire: 'The remaining balance lapsed at expiry',
});
defineEnum('GiftCardListState', LIST_STATES, 'Which gift cards a list shows.', {
  all: 'Every card',
  active: 'Cards that can pay now',
  disabled: 'Disabled cards',
  expired: 'Enabled cards past their expiry',
  empty: 'Enabled, unexpired cards with no balance left',
});

const PERMS = {
  manage: { permission: 'giftcards:manage' },
  read: { anyPermission: ['giftcards:read', 'giftcards:manage'] },
  /** A shopper checking a card's balance: whoever builds a cart. */
  lookup: { anyPermission: ['giftcards:read', 'giftcards:manage', 'cart:update'] },
} as const;

const CARD_DOC = 'Codes are stored hashed: the full code is in the issue answer only; later answers show the last 4 characters (`maskedCode`).';

// The builder's schema types, for the field builder cardFields receives.
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The fields every gift card type shares (GiftCard, GiftCardDetail, GiftCardIssued). */
function cardFields<T extends GiftCardView>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) {
  return {
    id: t.field({ type: 'UUID', resolve: (c) => c.id }),
    maskedCode: t.string({ description: '****-****-****-LAST', resolve: (c) => c.maskedCode }),
    last4: t.string({ resolve: (c) => c.last4 }),
    currency: t.string({ resolve: (c) => c.currency }),
    initialBalance: t.field({ type: 'MinorUnits', resolve: (c) => c.initialBalance }),
    balance: t.field({ type: 'MinorUnits', resolve: (c) => c.balance }),
    state: t.field({ type: GiftCardStateEnum, resolve: (c) => c.state as never }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'Null = never expires', resolve: (c) => c.expiresAt }),
    recipientEmail: t.string({ nullable: true, resolve: (c) => c.recipientEmail }),
    recipientName: t.string({ nullable: true, resolve: (c) => c.recipientName }),
    note: t.string({ nullable: true, description: 'Staff note; not shown to shoppers', resolve: (c) => c.note }),
    sourceOrderId: t.field({ type: 'UUID', nullable: true, description: 'The order that bought it (gift-card products)', resolve: (c) => c.sourceOrderId }),
    sourceOrderLineId: t.field({ type: 'UUID', nullable: true, description: 'The gift-card order line that issued it (one card per unit)', resolve: (c) => c.sourceOrderLineId }),
    revokedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When a refund or cancel of its order line took it back (disabled, balance zeroed)',
      resolve: (c) => c.revokedAt,
    }),
    disabledAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.disabledAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt }),
  };
}

export const GiftCardEntryRef = builder.objectRef<GiftCardEntryView>('GiftCardEntry').implement({
  description: 'One move of a gift card balance (its ledger).',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    kind: t.field({ type: GiftCardEntryKindEnum, resolve: (e) => e.kind as never }),
    amount: t.expose('amount', { type: 'MinorUnits', description: 'Signed: credits positive, debits negative' }),
    balanceAfter: t.expose('balanceAfter', { type: 'MinorUnits' }),
    orderId: t.expose('orderId', { type: 'UUID', nullable: true }),
    paymentId: t.expose('paymentId', { type: 'UUID', nullable: true }),
    note: t.string({ nullable: true, resolve: (c) => c.note }),
    actorId: t.string({ nullable: true, description: 'The user or API key that moved it; null for the system', resolve: (c) => c.actorId }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const GiftCardRef = builder.objectRef<GiftCardView>('GiftCard').implement({
  description: `A gift card. ${CARD_DOC}`,
  fields: (t) => cardFields(t),
});

export const GiftCardDetailRef = builder.objectRef<GiftCardDetailView>('GiftCardDetail').implement({
  description: `A gift card with its ledger, oldest entry first. ${CARD_DOC}`,
  fields: (t) => ({
    ...cardFields(t),
    entries: t.expose('entries', { type: [GiftCardEntryRef] }),
  }),
});

export const GiftCardIssuedRef = builder.objectRef<GiftCardIssuedView>('GiftCardIssued').implement({
  description: 'A gift card just issued, with its full code: the only answer that carries it.',
  fields: (t) => ({
    ...cardFields(t),
    code: t.string({ description: 'The full code (XXXX-XXXX-XXXX-XXXX): give it to the recipient; it is not shown again', resolve: (c) => c.code }),
  }),
});

export const GiftCardBalanceRef = builder.objectRef<GiftCardBalanceView>('GiftCardBalance').implement({
  description: "A shopper's view of a card found by its code.",
  fields: (t) => ({
    maskedCode: t.string({ resolve: (c) => c.maskedCode }),
    last4: t.string({ resolve: (c) => c.last4 }),
    currency: t.string({ resolve: (c) => c.currency }),
    balance: t.expose('balance', { type: 'MinorUnits' }),
    state: t.expose('state', { type: GiftCardStateEnum }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    usable: t.exposeBoolean('usable', { description: 'Whether it can pay an order in its currency now' }),
  }),
});

const id = z.guid().describe('Gift card UUID');
const codeInput = z.string().trim().min(4).max(64).describe('The gift card code; case, spaces and dashes do not matter');

async function cardBefore(ctx: Parameters<typeof findGiftCardView>[0], cardId: string) {
  const found = await findGiftCardView(ctx, cardId);
  if (!found) throw notFound('Gift card');
  return giftCardPayload(found);
}

defineOperation({
  name: 'giftCardIssue',
  kind: 'mutation',
  summary: 'Issue a gift card',
  description: `A new card with a generated code (16 characters from a crypto RNG). ${CARD_DOC} Emits giftcards.issue.`,
  rest: { method: 'POST', path: '/gift-cards', status: 201 },
  access: PERMS.manage,
  input: {
    initialBalance: money().min(1, 'must be > 0').describe('Minor units of currency, > 0'),
    currency: currencySchema,
    expiresAt: z.coerce.date().nullable().optional().describe('ISO 8601, in the future; null = never'),
    recipientEmail: z.email().max(254).nullable().optional(),
    recipientName: z.string().trim().min(1).max(200).nullable().optional(),
    note: z.string().trim().max(2000).nullable().optional(),
  },
  output: GiftCardIssuedRef,
  resolve: (ctx, input) => issueGiftCard(ctx, input),
  // The audit entry holds the card without its code.
  audit: { event: 'giftcards.issue', entityType: 'gift_card', after: (c) => giftCardPayload(c) },
});

defineOperation({
  name: 'giftCards',
  kind: 'query',
  summary: 'List gift cards, newest first',
  description: 'Filters: state (default all), currency, recipientEmail (exact, case-insensitive), last4, sourceOrderId.',
  rest: { method: 'GET', path: '/gift-cards' },
  access: PERMS.read,
  input: {
    state: z.enum(LIST_STATES).default('all'),
    currency: currencySchema.optional(),
    recipientEmail: z.string().trim().min(1).max(254).optional(),
    last4: z.string().trim().length(4).optional(),
    sourceOrderId: z.guid().optional(),
    ...pageInput(20, 100),
  },
  output: pageOf('GiftCard', GiftCardRef),
  paginated: true,
  resolve: (ctx, input) => listGiftCards(ctx, input),
});

defineOperation({
  name: 'giftCard',
  kind: 'query',
  summary: 'Get one gift card with its ledger',
  rest: { method: 'GET', path: '/gift-cards/:id' },
  access: PERMS.read,
  input: { id },
  output: GiftCardDetailRef,
  resolve: (ctx, input) => getGiftCard(ctx, input.id),
});

defineOperation({
  name: 'giftCardDisable',
  kind: 'mutation',
  summary: 'Disable a gift card',
  description: 'It stops paying at once (checkouts naming it are 422); the balance stays on record. Idempotent. Emits giftcards.disable.',
  rest: { method: 'POST', path: '/gift-cards/:id/disable' },
  access: PERMS.manage,
  input: { id, reason: z.string().trim().min(1).max(500).optional().describe('Appended to the note') },
  output: GiftCardRef,
  resolve: (ctx, input) => disableGiftCard(ctx, input.id, input.reason),
  audit: { event: 'giftcards.disable', entityType: 'gift_card', before: (ctx, input) => cardBefore(ctx, input.id), after: (c) => giftCardPayload(c) },
});

defineOperation({
  name: 'giftCardAdjust',
  kind: 'mutation',
  summary: "Correct a gift card's balance",
  description: 'amount is signed minor units (negative takes away); the balance never goes below 0 (409). An `adjust` ledger entry with the note. Emits giftcards.adjust.',
  rest: { method: 'POST', path: '/gift-cards/:id/adjust' },
  access: PERMS.manage,
  input: { id, amount: money({ signed: true }).describe('Signed minor units, not 0'), note: z.string().trim().min(1).max(500) },
  output: GiftCardDetailRef,
  resolve: (ctx, input) => adjustGiftCard(ctx, input.id, input),
  audit: { event: 'giftcards.adjust', entityType: 'gift_card', before: (ctx, input) => cardBefore(ctx, input.id), after: (c) => giftCardPayload(c) },
});

defineOperation({
  name: 'giftCardBalance',
  kind: 'query',
  summary: 'Check a gift card balance by its code',
  description:
    "For shoppers (any caller who may build a cart). An unknown code is 404. Each check spends one of the caller's " +
    'guess budget (429 with Retry-After when spent), and a request may check one code.',
  rest: { method: 'POST', path: '/gift-cards/lookup' },
  access: PERMS.lookup,
  guessable: true,
  input: { code: codeInput },
  output: GiftCardBalanceRef,
  resolve: (ctx, input) => lookupGiftCard(ctx, input.code),
});
