// Draft orders (issue 27): staff build an order for a customer (their account's user id) or a
// guest email — lines with optional custom unit prices (each with a reason), a manual discount,
// a shipping address and method — and complete it into a real order. Nothing is reserved or
// charged while it is a draft. State table (DRAFT_MOVES below is the data the code checks):
//
//   from       move                                    to          effects
//   open       PATCH /draft-orders/:id                  open        replaces the given fields
//   open       DELETE /draft-orders/:id                 (deleted)   the row is removed
//   open       POST /draft-orders/:id/send              sent        a payment link (new token) emailed to the customer (link.ts)
//   open       POST /draft-orders/:id/complete          completed   the order written as checkout writes one (complete.ts)
//   sent       POST /draft-orders/:id/send              sent        a new link; the old one no longer works (re-send)
//   sent       PATCH /draft-orders/:id                  open        the edit lands and the link dies: it priced other lines
//   sent       DELETE /draft-orders/:id                 (deleted)   the link dies with the row
//   sent       POST /draft-order-links/:token/checkout  completed   the shopper pays: the order, stock reserved, payment started
//   sent       POST /draft-orders/:id/complete          completed   staff complete it anyway; the link then answers 409
//   completed  any move                                 —           409 (details.reason INVALID_TRANSITION)
import type { Tx } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { conflict, notFound, validationFailed } from '../../errors.js';
import { paginate, type Page, type PageInput } from '../../graphql/pagination.js';
import { actorRecord, type OrdersCtx } from '../orders/shared.js';
import { inTransaction } from '../orders/tx.js';
import { loadSellables } from '../checkout/sellables.js';
import { isGiftCardType, type GiftCardRecipient } from '../gift-cards/product.js';
import { draftView, type DraftLine, type DraftView } from './views.js';

export const DRAFT_NOTE_MAX = 2000;
export const DRAFT_REASON_MAX = 500;

export interface DraftInput {
  customerId?: string | null;
  email?: string | null;
  currency?: string;
  lines?: Array<{
    entityId: string;
    variantId?: string | null;
    quantity: number;
    unitPrice?: number | null;
    priceReason?: string | null;
    giftCardRecipient?: GiftCardRecipient | null;
  }>;
  discount?: { amount: number; reason?: string | null } | null;
  shippingAddress?: Record<string, unknown> | null;
  shippingMethodId?: string | null;
  note?: string | null;
}

function normalizeLines(lines: NonNullable<DraftInput['lines']>): DraftLine[] {
  const issues = lines.flatMap((l, i) =>
    l.unitPrice !== undefined && l.unitPrice !== null && !l.priceReason ? [{ field: `lines.${i}.priceReason`, message: 'is required with a custom unitPrice' }] : [],
  );
  if (issues.length) throw validationFailed(issues);
  return lines.map((l) => ({
    entityId: l.entityId,
    variantId: l.variantId ?? null,
    quantity: l.quantity,
    unitPrice: l.unitPrice ?? null,
    priceReason: l.unitPrice === undefined || l.unitPrice === null ? null : (l.priceReason ?? null),
    giftCardRecipient: l.giftCardRecipient ?? null,
  }));
}

/** A recipient only on a gift-card product's line (as a cart item takes one): 422 naming the line otherwise. */
async function assertRecipients(ctx: OrdersCtx, lines: DraftLine[]): Promise<void> {
  const named = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.giftCardRecipient);
  if (!named.length) return;
  const found = await loadSellables(
    ctx.db,
    ctx.organization.id,
    named.map(({ l }) => ({ entityId: l.entityId, variantId: l.variantId })),
  );
  const issues = named.flatMap(({ i }, k) =>
    isGiftCardType(found[k]?.entityType) ? [] : [{ field: `lines.${i}.giftCardRecipient`, message: 'only a gift-card product (entity type giftCard) takes a recipient' }],
  );
  if (issues.length) throw validationFailed(issues);
}

async function assertCustomer(ctx: OrdersCtx, customerId: string | null | undefined): Promise<void> {
  if (!customerId) return;
  const user = await ctx.db.user.findFirst({ where: { id: customerId, organizationId: ctx.organization.id }, select: { id: true } });
  if (!user) throw validationFailed([{ field: 'customerId', message: 'no such customer in this organization' }]);
}

export async function createDraft(ctx: OrdersCtx, input: DraftInput & { currency: string; lines: NonNullable<DraftInput['lines']> }): Promise<DraftView> {
  if (!input.customerId && !input.email) throw validationFailed([{ field: 'email', message: 'name the customer (customerId) or a guest email' }]);
  await assertCustomer(ctx, input.customerId);
  const lines = normalizeLines(input.lines);
  await assertRecipients(ctx, lines);
  const actor = actorRecord(ctx);
  const row = await ctx.db.draftOrder.create({
    data: {
      organizationId: ctx.organization.id,
      customerId: input.customerId ?? null,
      email: input.email ?? null,
      currency: input.currency,
      lines: lines as unknown as Prisma.InputJsonValue,
      discountAmount: BigInt(input.discount?.amount ?? 0),
      discountReason: input.discount?.reason ?? null,
      shippingAddress: (input.shippingAddress ?? undefined) as Prisma.InputJsonValue | undefined,
      shippingMethodId: input.shippingMethodId ?? null,
      note: input.note ?? null,
      createdById: actor.id,
      createdByKind: actor.kind,
    },
  });
  return draftView(row);
}

export async function getDraft(ctx: OrdersCtx, id: string): Promise<DraftView> {
  const row = await ctx.db.draftOrder.findFirst({ where: { id, organizationId: ctx.organization.id } });
  if (!row) throw notFound('Draft order');
  return draftView(row);
}

export async function listDrafts(ctx: OrdersCtx, input: { status?: DraftStatus } & PageInput): Promise<Page<DraftView>> {
  const where: Prisma.DraftOrderWhereInput = { organizationId: ctx.organization.id, ...(input.status ? { status: input.status } : {}) };
  return paginate(ctx, input, {
    list: 'draftOrders',
    model: 'DraftOrder',
    where,
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    findMany: (args) => ctx.db.draftOrder.findMany(args),
    count: (w) => ctx.db.draftOrder.count({ where: w }),
    view: (rows) => rows.map(draftView),
  });
}

export type DraftStatus = 'open' | 'sent' | 'completed';
export type DraftMove = 'updated' | 'deleted' | 'sent' | 'completed';

/** The states each move may start from (the table above); every other start is 409. */
export const DRAFT_MOVES: Record<DraftMove, readonly DraftStatus[]> = {
  updated: ['open', 'sent'],
  deleted: ['open', 'sent'],
  sent: ['open', 'sent'],
  completed: ['open', 'sent'],
};

/** Locks a draft for a move; 404 when absent, 409 when the move cannot start from its status. */
export async function lockOpenDraft(tx: Tx, ctx: OrdersCtx, id: string, to: DraftMove) {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`select id from draft_orders where id = ${id}::uuid and organization_id = ${ctx.organization.id}::uuid for update`;
  if (!rows[0]) throw notFound('Draft order');
  const row = await tx.draftOrder.findUniqueOrThrow({ where: { id } });
  if (!DRAFT_MOVES[to].includes(row.status as DraftStatus)) throw conflict(`A ${row.status} draft order cannot be ${to}`, { reason: 'INVALID_TRANSITION', from: row.status, to });
  return row;
}

export async function updateDraft(ctx: OrdersCtx, id: string, input: DraftInput): Promise<DraftView> {
  await assertCustomer(ctx, input.customerId);
  const lines = input.lines ? normalizeLines(input.lines) : null;
  if (lines) await assertRecipients(ctx, lines);
  return inTransaction(ctx.db, async (tx) => {
    const row = await lockOpenDraft(tx, ctx, id, 'updated');
    const customerId = input.customerId !== undefined ? input.customerId : row.customerId;
    const email = input.email !== undefined ? input.email : row.email;
    if (!customerId && !email) throw validationFailed([{ field: 'email', message: 'name the customer (customerId) or a guest email' }]);
    // An edit of a sent draft kills its link (it priced other lines): back to open, send again.
    const data: Prisma.DraftOrderUpdateInput = { customerId, email, status: 'open', linkTokenHash: null, linkExpiresAt: null };
    if (input.currency) data.currency = input.currency;
    if (lines) data.lines = lines as unknown as Prisma.InputJsonValue;
    if (input.discount !== undefined) {
      data.discountAmount = BigInt(input.discount?.amount ?? 0);
      data.discountReason = input.discount?.reason ?? null;
    }
    if (input.shippingAddress !== undefined) data.shippingAddress = (input.shippingAddress ?? undefined) as Prisma.InputJsonValue | undefined;
    if (input.shippingMethodId !== undefined) data.shippingMethodId = input.shippingMethodId;
    if (input.note !== undefined) data.note = input.note;
    return draftView(await tx.draftOrder.update({ where: { id: row.id }, data }));
  });
}

export async function deleteDraft(ctx: OrdersCtx, id: string): Promise<DraftView> {
  return inTransaction(ctx.db, async (tx) => {
    const row = await lockOpenDraft(tx, ctx, id, 'deleted');
    await tx.draftOrder.delete({ where: { id: row.id } });
    return draftView(row);
  });
}
