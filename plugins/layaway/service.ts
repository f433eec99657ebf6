// Layaway plans: stock reserved at creation, installments recorded under a row lock with an
// idempotency key, completion into an order (once) at full payment, forfeiture releasing the
// stock. Every write runs in the caller's transaction (the route builder's audited one) or in
// its own, so a plan and its stock move together or not at all.
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../src/generated/prisma/client.js';
import type { RequestContext } from '../../src/context.js';
import type { Tx } from '../../src/db/client.js';
import { withTransaction, type DbClient } from '../../src/db/transaction.js';
import { AppError, notFound, validationFailed } from '../../src/errors.js';
import { loadSellables, unsellableReason } from '../../src/modules/checkout/sellables.js';
import { actorRecord, orgSettings, serviceCtx } from '../../src/modules/orders/shared.js';
import { recordStatusChange } from '../../src/modules/orders/service.js';
import { assignNumber, yearIn } from '../../src/modules/orders/numbers.js';
import { orderPayload, orderView } from '../../src/modules/orders/views.js';
import { originOf, recordEvent } from '../../src/events/outbox.js';

export const STATUSES = ['active', 'completed', 'forfeited'] as const;
export type LayawayStatus = (typeof STATUSES)[number];
export const FORFEIT_POLICIES = ['retain_deposit', 'retain_all', 'refund_all'] as const;
export type ForfeitPolicy = (typeof FORFEIT_POLICIES)[number];

/** Legal moves; anything else is 422 INVALID_TRANSITION (the README's table). */
const MOVES: Record<LayawayStatus, readonly LayawayStatus[]> = { active: ['completed', 'forfeited'], completed: [], forfeited: [] };

type Ctx = Pick<RequestContext, 'organization' | 'actor' | 'requestId' | 'db' | 'services' | 'logger'>;

export interface CreateInput {
  customerEmail: string;
  currency: string;
  lines: Array<{ entityId: string; variantId?: string | null; quantity: number }>;
  deposit: number;
  depositMethod: string;
  installments: Array<{ dueAt: Date; amount: number }>;
  expiresAt: Date;
  forfeitPolicy: ForfeitPolicy;
  idempotencyKey?: string;
}

const PLAN_INCLUDE = { lines: { orderBy: { position: 'asc' } }, payments: { orderBy: { createdAt: 'asc' } } } satisfies Prisma.LayawayPlanInclude;
type PlanRow = Prisma.LayawayPlanGetPayload<{ include: typeof PLAN_INCLUDE }>;
type PlanBase = Prisma.LayawayPlanGetPayload<object>;

export function planView(row: PlanBase & Partial<Pick<PlanRow, 'lines' | 'payments'>>) {
  const total = Number(row.total);
  const paid = Number(row.paidAmount);
  return {
    id: row.id,
    status: row.status as LayawayStatus,
    customerEmail: row.customerEmail,
    currency: row.currency,
    total,
    depositAmount: Number(row.depositAmount),
    paidAmount: paid,
    balance: total - paid,
    installments: row.installments,
    forfeitPolicy: row.forfeitPolicy,
    retainedAmount: row.retainedAmount === null ? null : Number(row.retainedAmount),
    refundDue: row.refundDue === null ? null : Number(row.refundDue),
    forfeitReason: row.forfeitReason,
    expiresAt: row.expiresAt.toISOString(),
    orderId: row.orderId,
    completedAt: row.completedAt?.toISOString() ?? null,
    forfeitedAt: row.forfeitedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    ...(row.lines
      ? {
          lines: row.lines.map((l) => ({
            id: l.id,
            entityId: l.entityId,
            variantId: l.variantId,
            sku: l.sku,
            title: l.title,
            quantity: l.quantity,
            unitPrice: Number(l.unitPrice),
            totalPrice: Number(l.totalPrice),
            reservations: l.reservations,
          })),
        }
      : {}),
    ...(row.payments
      ? {
          payments: row.payments.map((p) => ({
            id: p.id,
            amount: Number(p.amount),
            method: p.method,
            reference: p.reference,
            idempotencyKey: p.idempotencyKey,
            createdAt: p.createdAt.toISOString(),
          })),
        }
      : {}),
  };
}
export type PlanView = ReturnType<typeof planView>;

function invalidTransition(from: string, to: string): AppError {
  return new AppError('INVALID_TRANSITION', `a ${from} layaway cannot become ${to}`, { from, to, allowed: MOVES[from as LayawayStatus] ?? [] });
}

function assertMove(from: string, to: LayawayStatus): void {
  if (!(MOVES[from as LayawayStatus] ?? []).includes(to)) throw invalidTransition(from, to);
}

/** Locks the plan row for the rest of the transaction; 404 outside the organization. */
async function lockPlan(tx: Tx, organizationId: string, id: string): Promise<PlanBase> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    select id from plugin_layaway_plans where id = ${id}::uuid and organization_id = ${organizationId}::uuid for update`;
  if (!rows.length) throw notFound('Layaway');
  return tx.layawayPlan.findUniqueOrThrow({ where: { id } });
}

export async function createPlan(ctx: Ctx, input: CreateInput): Promise<PlanView> {
  const org = ctx.organization.id;
  return withTransaction(ctx, async (tx) => {
    const sellables = await loadSellables(
      tx,
      org,
      input.lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null })),
    );
    const refused = sellables
      .map((s, i) => ({ field: `lines.${i}.entityId`, message: unsellableReason(s) }))
      .filter((r): r is { field: string; message: string } => Boolean(r.message));
    if (refused.length) throw validationFailed(refused, 'Some lines cannot be sold');
    const prices = await ctx.services.pricing.resolvePrices(
      serviceCtx(ctx, tx),
      { currency: input.currency },
      input.lines.map((l) => ({ entityId: l.entityId, variantId: l.variantId ?? null, quantity: l.quantity })),
    );
    const unpriced = prices.map((p, i) => (p ? null : { field: `lines.${i}.entityId`, message: `no price in ${input.currency}` })).filter((x) => x !== null);
    if (unpriced.length) throw validationFailed(unpriced, 'Some lines have no price');
    const lineTotals = input.lines.map((l, i) => Number(prices[i]!.unitAmount) * l.quantity);
    const total = lineTotals.reduce((a, b) => a + b, 0);
    const scheduled = input.installments.reduce((a, b) => a + b.amount, 0);
    const issues = [];
    if (input.deposit > total) issues.push({ field: 'deposit', message: `the deposit exceeds the total ${total}` });
    if (input.installments.length && input.deposit + scheduled !== total)
      issues.push({ field: 'installments', message: `deposit + installments must equal the total ${total}, got ${input.deposit + scheduled}` });
    if (input.installments.some((i) => i.dueAt > input.expiresAt)) issues.push({ field: 'installments', message: 'an installment is due after the plan expires' });
    if (issues.length) throw validationFailed(issues);

    const id = randomUUID();
    // Stock is held from now on, in a fixed lock order (entity, variant) so that two plans
    // never deadlock; reserve refuses when the stock is not there (no oversell).
    const order = input.lines
      .map((_, i) => i)
      .sort((a, b) => input.lines[a]!.entityId.localeCompare(input.lines[b]!.entityId) || (input.lines[a]!.variantId ?? '').localeCompare(input.lines[b]!.variantId ?? ''));
    const reservations: Array<Array<{ warehouseId: string; quantity: number }>> = input.lines.map(() => []);
    for (const i of order) {
      const line = input.lines[i]!;
      const r = await ctx.services.inventory.reserve(serviceCtx(ctx, tx), {
        entityId: line.entityId,
        variantId: line.variantId ?? null,
        quantity: line.quantity,
        reference: `layaway:${id}`,
      });
      reservations[i] = [{ warehouseId: r.warehouseId, quantity: r.quantity }];
    }
    await tx.layawayPlan.create({
      data: {
        id,
        organizationId: org,
        customerEmail: input.customerEmail.toLowerCase(),
        currency: input.currency,
        total: BigInt(total),
        depositAmount: BigInt(input.deposit),
        paidAmount: BigInt(input.deposit),
        installments: input.installments.map((i) => ({ dueAt: i.dueAt.toISOString(), amount: i.amount })),
        forfeitPolicy: input.forfeitPolicy,
        expiresAt: input.expiresAt,
        lines: {
          create: input.lines.map((l, i) => ({
            organizationId: org,
            position: i,
            entityId: l.entityId,
            variantId: l.variantId ?? null,
            entityType: sellables[i]!.entityType,
            sku: sellables[i]!.sku,
            title: sellables[i]!.title,
            quantity: l.quantity,
            unitPrice: prices[i]!.unitAmount,
            totalPrice: BigInt(lineTotals[i]!),
            reservations: reservations[i]!,
          })),
        },
        ...(input.deposit > 0 ? { payments: { create: [{ organizationId: org, amount: BigInt(input.deposit), method: input.depositMethod, idempotencyKey: 'deposit' }] } } : {}),
      },
    });
    if (input.deposit === total) await completePlan(ctx, tx, id);
    return planView(await tx.layawayPlan.findUniqueOrThrow({ where: { id }, include: PLAN_INCLUDE }));
  });
}

export async function getPlan(ctx: Pick<Ctx, 'organization' | 'db'>, id: string): Promise<PlanView> {
  const row = await ctx.db.layawayPlan.findFirst({ where: { id, organizationId: ctx.organization.id }, include: PLAN_INCLUDE });
  if (!row) throw notFound('Layaway');
  return planView(row);
}

export async function listPlans(ctx: Pick<Ctx, 'organization' | 'db'>, input: { status?: LayawayStatus; limit: number; offset: number }) {
  const where = { organizationId: ctx.organization.id, ...(input.status ? { status: input.status } : {}) };
  const [rows, total] = await Promise.all([
    ctx.db.layawayPlan.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: input.limit, skip: input.offset }),
    ctx.db.layawayPlan.count({ where }),
  ]);
  return { data: rows.map((r) => planView(r)), meta: { total, limit: input.limit, offset: input.offset } };
}

export interface PaymentInput {
  amount: number;
  method: string;
  reference?: string | null;
  idempotencyKey: string;
}

/**
 * Records an installment. The plan row is locked first, so concurrent payments of one plan run
 * one after the other: a replayed key returns the plan as it is (recorded once), and no payment
 * takes the paid amount past the total. At full payment the plan completes into an order.
 */
export async function recordPayment(ctx: Ctx, id: string, input: PaymentInput): Promise<{ plan: PlanView; replayed: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const plan = await lockPlan(tx, ctx.organization.id, id);
    const existing = await tx.layawayPayment.findUnique({ where: { planId_idempotencyKey: { planId: id, idempotencyKey: input.idempotencyKey } } });
    if (existing) {
      if (Number(existing.amount) !== input.amount)
        throw new AppError('CONFLICT', 'this idempotency key was used for another amount', { idempotencyKey: input.idempotencyKey, amount: Number(existing.amount) });
      return { plan: planView(await tx.layawayPlan.findUniqueOrThrow({ where: { id }, include: PLAN_INCLUDE })), replayed: true };
    }
    if (plan.status !== 'active') throw new AppError('INVALID_TRANSITION', `a ${plan.status} layaway takes no payments`, { from: plan.status });
    const balance = Number(plan.total - plan.paidAmount);
    if (input.amount > balance) throw validationFailed([{ field: 'amount', message: `exceeds the balance of ${balance}` }], 'Payment exceeds the balance');
    await tx.layawayPayment.create({
      data: {
        organizationId: ctx.organization.id,
        planId: id,
        amount: BigInt(input.amount),
        method: input.method,
        reference: input.reference ?? null,
        idempotencyKey: input.idempotencyKey,
      },
    });
    await tx.layawayPlan.update({ where: { id }, data: { paidAmount: { increment: BigInt(input.amount) } } });
    if (input.amount === balance) await completePlan(ctx, tx, id);
    return { plan: planView(await tx.layawayPlan.findUniqueOrThrow({ where: { id }, include: PLAN_INCLUDE })), replayed: false };
  });
}

/** Paid in full: the reservation becomes an order (confirmed, paid), once — the plan row is locked and moves to completed. */
async function completePlan(ctx: Ctx, tx: Tx, id: string): Promise<void> {
  const plan = await tx.layawayPlan.findUniqueOrThrow({ where: { id }, include: { lines: { orderBy: { position: 'asc' } } } });
  assertMove(plan.status, 'completed');
  const orderId = randomUUID();
  const now = new Date();
  const settings = await orgSettings(tx, ctx.organization.id);
  const created = await tx.order.create({
    data: {
      id: orderId,
      organizationId: ctx.organization.id,
      number: `pending:${orderId}`,
      customerEmail: plan.customerEmail,
      status: 'confirmed',
      paymentStatus: 'paid',
      currency: plan.currency,
      subtotal: plan.total,
      grandTotal: plan.total,
      capturedAmount: plan.total,
      pricing: { layaway: { planId: plan.id } } as Prisma.InputJsonObject,
      paymentProvider: 'layaway',
      placedAt: now,
    },
  });
  const lines = await tx.orderLine.createManyAndReturn({
    data: plan.lines.map((l) => ({
      organizationId: ctx.organization.id,
      orderId,
      position: l.position,
      entityId: l.entityId,
      variantId: l.variantId,
      entityType: l.entityType,
      sku: l.sku,
      title: l.title,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      totalPrice: l.totalPrice,
      reservations: l.reservations as Prisma.InputJsonValue,
    })),
  });
  const actor = actorRecord(ctx);
  await recordStatusChange(tx, ctx, orderId, null, 'pending', { trigger: 'layaway', actor });
  await recordStatusChange(tx, ctx, orderId, 'pending', 'confirmed', { trigger: 'payment', reason: `layaway ${plan.id} paid in full`, actor });
  // The held stock now belongs to the order: fulfilment and cancellation settle reservations
  // under `order:<id>`, as for a checkout's order.
  await tx.inventoryReservation.updateMany({
    where: { organizationId: ctx.organization.id, reference: `layaway:${plan.id}` },
    data: { reference: `order:${orderId}` },
  });
  const number = await assignNumber(tx, ctx.organization.id, 'order', yearIn(now, settings.timezone), orderId);
  await tx.layawayPlan.update({ where: { id }, data: { status: 'completed', completedAt: now, orderId } });
  const view = orderView({ ...created, number, lines: lines.sort((a, b) => a.position - b.position) });
  await recordEvent(tx, originOf(ctx), 'orders.create', { order: orderPayload(view) });
}

/** What the shop keeps and what it owes back, per the plan's policy. */
export function forfeitSplit(policy: string, paid: number, deposit: number): { retained: number; refundDue: number } {
  const retained = policy === 'retain_all' ? paid : policy === 'refund_all' ? 0 : Math.min(deposit, paid);
  return { retained, refundDue: paid - retained };
}

/** Forfeits an active plan: its reserved stock goes back on sale and the money is split per its policy. */
export async function forfeitPlan(ctx: Ctx, id: string, reason: string): Promise<PlanView> {
  return withTransaction(ctx, async (tx) => {
    const plan = await lockPlan(tx, ctx.organization.id, id);
    assertMove(plan.status, 'forfeited');
    const lines = await tx.layawayLine.findMany({ where: { planId: id }, orderBy: { position: 'asc' } });
    for (const line of lines) {
      for (const r of line.reservations as Array<{ warehouseId: string; quantity: number }>) {
        await ctx.services.inventory.release(serviceCtx(ctx, tx), {
          entityId: line.entityId,
          variantId: line.variantId,
          warehouseId: r.warehouseId,
          quantity: r.quantity,
          reference: `layaway:${id}`,
        });
      }
    }
    const split = forfeitSplit(plan.forfeitPolicy, Number(plan.paidAmount), Number(plan.depositAmount));
    await tx.layawayPlan.update({
      where: { id },
      data: { status: 'forfeited', forfeitedAt: new Date(), forfeitReason: reason, retainedAmount: BigInt(split.retained), refundDue: BigInt(split.refundDue) },
    });
    return planView(await tx.layawayPlan.findUniqueOrThrow({ where: { id }, include: PLAN_INCLUDE }));
  });
}

/** The expiry sweep: forfeits the organization's active plans past their expiry, each in its own transaction. */
export async function forfeitExpired(ctx: Ctx, limit = 100): Promise<{ forfeited: string[] }> {
  const due = await (ctx.db as DbClient).layawayPlan.findMany({
    where: { organizationId: ctx.organization.id, status: 'active', expiresAt: { lt: new Date() } },
    select: { id: true },
    orderBy: { expiresAt: 'asc' },
    take: limit,
  });
  const forfeited: string[] = [];
  for (const { id } of due) {
    try {
      await forfeitPlan(ctx, id, 'expired');
      forfeited.push(id);
    } catch (error) {
      // Paid or forfeited meanwhile: nothing to do for this plan.
      if (!(error instanceof AppError && error.code === 'INVALID_TRANSITION')) throw error;
    }
  }
  return { forfeited };
}
