// The vendor ledger and payouts. Every money movement of a vendor is one signed ledger row with
// a unique reference (booked once however often the booking code runs): a delivered sub-order
// credits its net amount (available after the holding period), a payout, a refund of a return
// and a lost dispute debit it. A balance is a sum over the ledger, never a stored counter.
//
// Payouts: POST /payouts/run enqueues one `marketplace/payouts` job per organization (a second
// run while one is pending is superseded, never doubled). The job takes each vendor's advisory
// lock, reads the available balance and books payout + debit in one transaction, so two runs
// (or two workers) can never pay the same money twice. The provider is called after commit
// with the payout's idempotency key; a failed payout keeps its debit and can be retried.
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../src/generated/prisma/client.js';
import type { Db, Tx } from '../../src/db/client.js';
import { withTransaction } from '../../src/db/transaction.js';
import { AppError, notFound } from '../../src/errors.js';
import { emit, iso, num, page, type Ctx } from './shared.js';
import type { PayoutAdapter } from './payout-adapters.js';

export const LEDGER_KINDS = ['sale', 'payout', 'refund', 'dispute'] as const;
export const PAYOUT_STATUSES = ['pending', 'paid', 'failed'] as const;
export const DAY_MS = 86_400_000;

export async function book(
  tx: Tx,
  entry: {
    organizationId: string;
    vendorId: string;
    kind: (typeof LEDGER_KINDS)[number];
    amount: number;
    currency: string;
    reference: string;
    subOrderId?: string | null;
    payoutId?: string | null;
    availableAt?: Date;
  },
): Promise<void> {
  if (entry.amount === 0) return;
  await tx.marketplaceLedgerEntry.createMany({
    data: [{ ...entry, amount: BigInt(entry.amount), subOrderId: entry.subOrderId ?? null, payoutId: entry.payoutId ?? null, availableAt: entry.availableAt ?? new Date() }],
    skipDuplicates: true,
  });
}

/**
 * Books the vendor's share of a refund of one sub-order (a received return or a resolved
 * dispute), capped so that the sub-order's debits together never exceed its sale credit (its
 * net amount), whatever disputes, returns and refunds follow one another. The caller holds the
 * sub-order's row lock (`lockSubOrder`), so two debits of one sub-order never read the same
 * total. Returns the amount debited (positive).
 */
export async function bookSubOrderDebit(
  tx: Tx,
  sub: { id: string; organizationId: string; vendorId: string; currency: string; netAmount: bigint },
  entry: { kind: 'refund' | 'dispute'; share: number; reference: string },
): Promise<number> {
  const earlier = await tx.marketplaceLedgerEntry.aggregate({
    where: { organizationId: sub.organizationId, subOrderId: sub.id, kind: { in: ['refund', 'dispute'] } },
    _sum: { amount: true },
  });
  const room = num(sub.netAmount) + num(earlier._sum.amount ?? 0n);
  const amount = Math.max(0, Math.min(entry.share, room));
  await book(tx, {
    organizationId: sub.organizationId,
    vendorId: sub.vendorId,
    kind: entry.kind,
    amount: -amount,
    currency: sub.currency,
    reference: entry.reference,
    subOrderId: sub.id,
  });
  return amount;
}

export interface BalanceView {
  currency: string;
  totalCredits: number;
  totalDebits: number;
  balance: number;
  /** Credits past their holding period, less every debit: what a payout run would pay. */
  available: number;
  pending: number;
}

/** Balances per currency of one vendor, from the ledger (one statement). */
export async function vendorBalances(db: Db | Tx, organizationId: string, vendorId: string, now = new Date()): Promise<BalanceView[]> {
  const rows = await db.$queryRaw<Array<{ currency: string; credits: bigint; debits: bigint; available: bigint }>>`
    select currency,
           coalesce(sum(amount) filter (where amount > 0), 0)::bigint as credits,
           coalesce(-sum(amount) filter (where amount < 0), 0)::bigint as debits,
           coalesce(sum(amount) filter (where amount < 0 or available_at <= ${now}), 0)::bigint as available
    from plugin_marketplace_ledger_entries
    where organization_id = ${organizationId}::uuid and vendor_id = ${vendorId}::uuid
    group by currency order by currency`;
  return rows.map((r) => {
    const balance = num(r.credits) - num(r.debits);
    return { currency: r.currency, totalCredits: num(r.credits), totalDebits: num(r.debits), balance, available: num(r.available), pending: balance - num(r.available) };
  });
}

export async function ledgerOf(db: Db | Tx, organizationId: string, vendorId: string) {
  const rows = await db.marketplaceLedgerEntry.findMany({ where: { organizationId, vendorId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    amount: num(r.amount),
    currency: r.currency,
    reference: r.reference,
    subOrderId: r.subOrderId,
    payoutId: r.payoutId,
    availableAt: r.availableAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
  }));
}

type PayoutRow = Prisma.MarketplacePayoutGetPayload<object>;

export function payoutView(p: PayoutRow) {
  return {
    id: p.id,
    vendorId: p.vendorId,
    amount: num(p.amount),
    currency: p.currency,
    status: p.status,
    adapter: p.adapter,
    idempotencyKey: p.idempotencyKey,
    externalId: p.externalId,
    failureReason: p.failureReason,
    attempts: p.attempts,
    paidAt: iso(p.paidAt),
    createdAt: p.createdAt.toISOString(),
  };
}

export async function listPayouts(ctx: Ctx, input: { vendorId?: string; status?: string; limit: number; offset: number }) {
  const where = { organizationId: ctx.organization.id, ...(input.vendorId ? { vendorId: input.vendorId } : {}), ...(input.status ? { status: input.status } : {}) };
  const [rows, total] = await Promise.all([
    ctx.db.marketplacePayout.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: input.limit, skip: input.offset }),
    ctx.db.marketplacePayout.count({ where }),
  ]);
  return page(rows.map(payoutView), total, input.limit, input.offset);
}

type SystemCtx = Pick<Ctx, 'organization' | 'actor' | 'requestId'>;

/**
 * One payout per approved vendor and currency with a positive available balance. Each vendor
 * is booked in its own transaction under its advisory lock: a concurrent run waits, then sees
 * the debit and finds nothing left to pay.
 */
export async function createPayouts(db: Db, ctx: SystemCtx, adapter: PayoutAdapter): Promise<string[]> {
  const organizationId = ctx.organization.id;
  const vendors = await db.marketplaceVendor.findMany({ where: { organizationId, status: 'approved' }, select: { id: true }, orderBy: { id: 'asc' } });
  const created: string[] = [];
  for (const { id: vendorId } of vendors) {
    const ids = await withTransaction({ db }, async (tx) => {
      await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`marketplace-payout:${organizationId}:${vendorId}`}, 0))`;
      const out: string[] = [];
      for (const b of await vendorBalances(tx, organizationId, vendorId)) {
        if (b.available <= 0) continue;
        const id = randomUUID();
        const row = await tx.marketplacePayout.create({
          data: { id, organizationId, vendorId, amount: BigInt(b.available), currency: b.currency, adapter: adapter.name, idempotencyKey: `payout:${id}` },
        });
        await book(tx, { organizationId, vendorId, kind: 'payout', amount: -b.available, currency: b.currency, reference: `payout:${id}`, payoutId: id });
        await emit(tx, ctx, 'marketplace.payout.create', { payout: payoutView(row) });
        out.push(id);
      }
      return out;
    });
    created.push(...ids);
  }
  return created;
}

/**
 * A send in flight holds its payout this long. A claim older than that was interrupted (the
 * worker died between claiming and recording the outcome) and may be sent again: the provider
 * sees the same idempotency key, so it cannot pay twice.
 */
export const PAYOUT_SEND_LEASE_MS = 5 * 60_000;

/**
 * Sends a pending payout to the adapter (outside any transaction) and records the outcome.
 * Claimed by one conditional update: a pending payout never sent (attempts 0), or one whose
 * claim outlived the lease. A second sender that reads the row after the first's claim finds
 * nothing to claim: two jobs that both list the pending payouts (two workers, two runs) call
 * the provider once. (The claim used to compare `attempts` with the value it had just read,
 * which a sender reading after another's claim passed too: a race test paid one payout twice.)
 */
export async function sendPayout(db: Db, ctx: SystemCtx, adapter: PayoutAdapter, payoutId: string): Promise<PayoutRow> {
  const organizationId = ctx.organization.id;
  const payout = await db.marketplacePayout.findFirst({ where: { id: payoutId, organizationId } });
  if (!payout) throw notFound('Payout');
  if (payout.status !== 'pending') return payout;
  const staleBefore = new Date(Date.now() - PAYOUT_SEND_LEASE_MS);
  const claimed = await db.marketplacePayout.updateMany({
    where: { id: payoutId, organizationId, status: 'pending', OR: [{ attempts: 0 }, { updatedAt: { lt: staleBefore } }] },
    data: { attempts: { increment: 1 }, updatedAt: new Date() },
  });
  if (!claimed.count) return db.marketplacePayout.findUniqueOrThrow({ where: { id: payoutId } });
  return deliverPayout(db, ctx, adapter, payout);
}

/** Calls the provider for a payout this caller has claimed, then records paid or failed. */
async function deliverPayout(db: Db, ctx: SystemCtx, adapter: PayoutAdapter, payout: PayoutRow): Promise<PayoutRow> {
  const organizationId = ctx.organization.id;
  const payoutId = payout.id;
  const vendor = await db.marketplaceVendor.findFirst({ where: { id: payout.vendorId, organizationId }, select: { stripeAccountId: true } });
  const result = await adapter.pay({
    payoutId,
    vendorId: payout.vendorId,
    amount: num(payout.amount),
    currency: payout.currency,
    idempotencyKey: payout.idempotencyKey,
    destination: vendor?.stripeAccountId ?? null,
  });
  return withTransaction({ db }, async (tx) => {
    const row = await tx.marketplacePayout.update({
      where: { id: payoutId },
      data: result.ok
        ? { status: 'paid', externalId: result.externalId, paidAt: new Date(), failureReason: null }
        : { status: 'failed', failureReason: result.message.slice(0, 500) },
    });
    await emit(tx, ctx, 'marketplace.payout.update', { payout: payoutView(row) });
    return row;
  });
}

/**
 * A failed payout goes back to pending (same amount, same idempotency key) and is sent again.
 * The row lock makes the failed → pending move and the claim one step: of two retries at once,
 * one sends and the other is refused.
 */
export async function retryPayout(ctx: Ctx, adapter: PayoutAdapter, payoutId: string) {
  const organizationId = ctx.organization.id;
  const claimed = await withTransaction(ctx, async (tx) => {
    const rows = await tx.$queryRaw<
      Array<{ status: string }>
    >`select status from plugin_marketplace_payouts where id = ${payoutId}::uuid and organization_id = ${organizationId}::uuid for update`;
    if (!rows.length) throw notFound('Payout');
    if (rows[0]!.status !== 'failed')
      throw new AppError('INVALID_TRANSITION', `a ${rows[0]!.status} payout cannot be retried (only failed ones)`, { from: rows[0]!.status, to: 'pending', allowed: [] });
    return tx.marketplacePayout.update({ where: { id: payoutId }, data: { status: 'pending', attempts: { increment: 1 } } });
  });
  return payoutView(await deliverPayout(ctx.db as Db, ctx, adapter, claimed));
}
