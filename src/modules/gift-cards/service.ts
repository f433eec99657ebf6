// Gift cards: issue, list, get (with its ledger), disable, adjust, and the shopper's balance
// lookup by code. Balance moves go through ledger.ts; redemption happens in the checkout.
import { AppError, notFound, validationFailed } from '../../errors.js';
import { uniqueViolation } from '../../db/errors.js';
import { withTransaction, type ServiceContext } from '../../db/transaction.js';
import type { GiftCard, GiftCardEntry, Prisma } from '../../generated/prisma/client.js';
import { paginate, type ListCtx, type Page, type PageInput } from '../../graphql/pagination.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import type { Tx } from '../../db/client.js';
import { generateCode, hashCode, last4Of, maskCode } from './code.js';
import { lockCardById, moveCard, unusableReason } from './ledger.js';
import { scheduleExpirySweep, type JobsCtx } from './expiry-schedule.js';

export type GiftCardState = 'active' | 'disabled' | 'expired' | 'empty';

export interface GiftCardView {
  id: string;
  maskedCode: string;
  last4: string;
  currency: string;
  initialBalance: bigint;
  balance: bigint;
  status: string;
  state: GiftCardState;
  expiresAt: Date | null;
  recipientEmail: string | null;
  recipientName: string | null;
  note: string | null;
  sourceOrderId: string | null;
  /** The gift-card order line that issued it. */
  sourceOrderLineId: string | null;
  /** When a refund of that line took it back. */
  revokedAt: Date | null;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface GiftCardEntryView {
  id: string;
  kind: string;
  amount: bigint;
  balanceAfter: bigint;
  orderId: string | null;
  paymentId: string | null;
  note: string | null;
  actorId: string | null;
  createdAt: Date;
}

export type GiftCardDetailView = GiftCardView & { entries: GiftCardEntryView[] };
export type GiftCardIssuedView = GiftCardView & { code: string };

/** A card in event payloads and audit entries: never the code, never bigint. */
export function giftCardPayload(card: GiftCardView) {
  return {
    id: card.id,
    last4: card.last4,
    currency: card.currency,
    initialBalance: Number(card.initialBalance),
    balance: Number(card.balance),
    status: card.status,
    expiresAt: card.expiresAt?.toISOString() ?? null,
    recipientEmail: card.recipientEmail,
    sourceOrderId: card.sourceOrderId,
  };
}

declare module '../../events/registry.js' {
  interface EventPayloads {
    'giftcards.issue': { giftCard: ReturnType<typeof giftCardPayload> };
    'giftcards.disable': { giftCard: ReturnType<typeof giftCardPayload> };
    'giftcards.adjust': { giftCard: ReturnType<typeof giftCardPayload>; amount: number; note: string };
  }
}

export function stateOf(card: Pick<GiftCard, 'status' | 'expiresAt' | 'balance'>, now = new Date()): GiftCardState {
  if (card.status !== 'active') return 'disabled';
  if (card.expiresAt && card.expiresAt <= now) return 'expired';
  if (card.balance <= 0n) return 'empty';
  return 'active';
}

export function giftCardView(row: GiftCard): GiftCardView {
  return {
    id: row.id,
    maskedCode: maskCode(row.last4),
    last4: row.last4,
    currency: row.currency,
    initialBalance: row.initialBalance,
    balance: row.balance,
    status: row.status,
    state: stateOf(row),
    expiresAt: row.expiresAt,
    recipientEmail: row.recipientEmail,
    recipientName: row.recipientName,
    note: row.note,
    sourceOrderId: row.sourceOrderId,
    sourceOrderLineId: row.sourceOrderLineId,
    revokedAt: row.revokedAt,
    disabledAt: row.disabledAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function entryView(row: GiftCardEntry): GiftCardEntryView {
  return {
    id: row.id,
    kind: row.kind,
    amount: row.amount,
    balanceAfter: row.balanceAfter,
    orderId: row.orderId,
    paymentId: row.paymentId,
    note: row.note,
    actorId: row.actorId,
    createdAt: row.createdAt,
  };
}

export interface IssueInput {
  initialBalance: number | bigint;
  currency: string;
  expiresAt?: Date | null;
  recipientEmail?: string | null;
  recipientName?: string | null;
  note?: string | null;
  sourceOrderId?: string | null;
  sourceOrderLineId?: string | null;
}

/**
 * Issues a card inside `tx` and records its `issue` entry. The code is in the answer only: it is
 * stored hashed. A hash collision with an existing card (79 random bits: practically never) is
 * retried with a new code.
 */
export async function issueGiftCardIn(tx: Tx, ctx: Pick<ServiceContext, 'organization' | 'actor' | 'requestId'> & JobsCtx, input: IssueInput): Promise<GiftCardIssuedView> {
  const amount = BigInt(input.initialBalance);
  if (amount <= 0n) throw validationFailed([{ field: 'initialBalance', message: 'must be > 0' }]);
  if (input.expiresAt && input.expiresAt <= new Date()) throw validationFailed([{ field: 'expiresAt', message: 'must be in the future' }]);
  for (let attempt = 0; ; attempt += 1) {
    const code = generateCode();
    try {
      // Nested transaction (a savepoint): a unique violation rolls back only this attempt.
      const card = await withTransaction({ db: tx }, async (inner) => {
        const created = await inner.giftCard.create({
          data: {
            organizationId: ctx.organization.id,
            codeHash: hashCode(code),
            last4: last4Of(code),
            currency: input.currency.toUpperCase(),
            initialBalance: amount,
            balance: 0n,
            expiresAt: input.expiresAt ?? null,
            recipientEmail: input.recipientEmail ?? null,
            recipientName: input.recipientName ?? null,
            note: input.note ?? null,
            sourceOrderId: input.sourceOrderId ?? null,
            sourceOrderLineId: input.sourceOrderLineId ?? null,
            createdBy: ctx.actor?.userId ?? null,
          },
        });
        return moveCard(inner, created, { organizationId: ctx.organization.id, kind: 'issue', amount, orderId: input.sourceOrderId, actor: ctx.actor?.userId ?? null });
      });
      const view = giftCardView(card);
      await recordEvent(tx, originOf(ctx), 'giftcards.issue', { giftCard: giftCardPayload(view) });
      if (view.expiresAt) await scheduleExpirySweep(tx, ctx, view.expiresAt);
      return { ...view, code };
    } catch (error) {
      if (attempt < 3 && uniqueViolation(error)) continue;
      throw error;
    }
  }
}

export function issueGiftCard(ctx: ServiceContext & JobsCtx, input: IssueInput): Promise<GiftCardIssuedView> {
  return withTransaction(ctx, (tx) => issueGiftCardIn(tx, ctx, input));
}

export const LIST_STATES = ['all', 'active', 'disabled', 'expired', 'empty'] as const;
export type ListState = (typeof LIST_STATES)[number];

export async function listGiftCards(
  ctx: ServiceContext & ListCtx,
  input: PageInput & { state: ListState; currency?: string | null; recipientEmail?: string | null; last4?: string | null; sourceOrderId?: string | null },
): Promise<Page<GiftCardView>> {
  const now = new Date();
  const notExpired: Prisma.GiftCardWhereInput = { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  const byState: Record<ListState, Prisma.GiftCardWhereInput> = {
    all: {},
    active: { status: 'active', balance: { gt: 0n }, ...notExpired },
    disabled: { status: 'disabled' },
    expired: { status: 'active', expiresAt: { lte: now } },
    empty: { status: 'active', balance: 0n, ...notExpired },
  };
  const where: Prisma.GiftCardWhereInput = {
    organizationId: ctx.organization.id,
    ...byState[input.state],
    ...(input.currency ? { currency: input.currency.toUpperCase() } : {}),
    ...(input.recipientEmail ? { recipientEmail: { equals: input.recipientEmail, mode: 'insensitive' as const } } : {}),
    ...(input.last4 ? { last4: input.last4.toUpperCase() } : {}),
    ...(input.sourceOrderId ? { sourceOrderId: input.sourceOrderId } : {}),
  };
  return paginate(ctx, input, {
    list: 'gift-cards',
    model: 'GiftCard',
    where,
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    findMany: (args) => ctx.db.giftCard.findMany(args),
    count: (w) => ctx.db.giftCard.count({ where: w }),
    view: (rows) => rows.map(giftCardView),
  });
}

export async function getGiftCard(ctx: ServiceContext, id: string): Promise<GiftCardDetailView> {
  const row = await ctx.db.giftCard.findFirst({
    where: { id, organizationId: ctx.organization.id },
    include: { entries: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
  });
  if (!row) throw notFound('Gift card');
  return { ...giftCardView(row), entries: row.entries.map(entryView) };
}

export async function findGiftCardView(ctx: ServiceContext, id: string): Promise<GiftCardView | null> {
  const row = await ctx.db.giftCard.findFirst({ where: { id, organizationId: ctx.organization.id } });
  return row ? giftCardView(row) : null;
}

/** Disables a card: it stops paying at once; its balance stays (re-enabling is not offered). Idempotent. */
export async function disableGiftCard(ctx: ServiceContext, id: string, reason?: string | null): Promise<GiftCardView> {
  return withTransaction(ctx, async (tx) => {
    const card = await lockCardById(tx, ctx.organization.id, id);
    if (!card) throw notFound('Gift card');
    if (card.status === 'disabled') return giftCardView(card);
    const updated = await tx.giftCard.update({
      where: { id: card.id },
      data: { status: 'disabled', disabledAt: new Date(), ...(reason ? { note: card.note ? `${card.note}\n${reason}` : reason } : {}) },
    });
    const view = giftCardView(updated);
    await recordEvent(tx, originOf(ctx), 'giftcards.disable', { giftCard: giftCardPayload(view) });
    return view;
  });
}

/** A staff correction of the balance (signed); never below zero (409). */
export async function adjustGiftCard(ctx: ServiceContext, id: string, input: { amount: number; note: string }): Promise<GiftCardDetailView> {
  if (input.amount === 0) throw validationFailed([{ field: 'amount', message: 'must not be 0' }]);
  await withTransaction(ctx, async (tx) => {
    const card = await lockCardById(tx, ctx.organization.id, id);
    if (!card) throw notFound('Gift card');
    const moved = await moveCard(tx, card, {
      organizationId: ctx.organization.id,
      kind: 'adjust',
      amount: BigInt(input.amount),
      note: input.note,
      actor: ctx.actor?.userId ?? null,
    });
    await recordEvent(tx, originOf(ctx), 'giftcards.adjust', { giftCard: giftCardPayload(giftCardView(moved)), amount: input.amount, note: input.note });
  });
  return getGiftCard(ctx, id);
}

export interface GiftCardBalanceView {
  maskedCode: string;
  last4: string;
  currency: string;
  balance: bigint;
  state: GiftCardState;
  expiresAt: Date | null;
  /** Whether it can pay an order in its currency now. */
  usable: boolean;
}

/** A shopper's balance check by code. An unknown code is 404 (the route spends a guess either way). */
export async function lookupGiftCard(ctx: ServiceContext, code: string): Promise<GiftCardBalanceView> {
  const row = await ctx.db.giftCard.findUnique({ where: { organizationId_codeHash: { organizationId: ctx.organization.id, codeHash: hashCode(code) } } });
  if (!row) throw new AppError('NOT_FOUND', 'No gift card has this code', { reason: 'GIFT_CARD_NOT_FOUND', fields: ['code'] });
  return {
    maskedCode: maskCode(row.last4),
    last4: row.last4,
    currency: row.currency,
    balance: row.balance,
    state: stateOf(row),
    expiresAt: row.expiresAt,
    usable: unusableReason(row, row.currency) === null,
  };
}
