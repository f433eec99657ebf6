// Store credit reads (the customer's own, staff's view of a customer) and staff moves. Balance
// moves themselves live in ledger.ts.
import { AppError, notFound } from '../../errors.js';
import { withTransaction, type ServiceContext } from '../../db/transaction.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import { creditStoreCredit, debitStoreCredit, type StoreCreditEntryView } from './ledger.js';

export interface StoreCreditBalanceView {
  currency: string;
  balance: bigint;
}

export interface StoreCreditView {
  customerId: string;
  balances: StoreCreditBalanceView[];
  entries: StoreCreditEntryView[];
}

declare module '../../events/registry.js' {
  interface EventPayloads {
    'storecredit.move': { customerId: string; currency: string; amount: number; balanceAfter: number; reason: string; sourceType: string };
  }
}

const ENTRY_PAGE = 100;

async function storeCreditOf(ctx: ServiceContext, customerId: string): Promise<StoreCreditView> {
  const [accounts, entries] = await Promise.all([
    ctx.db.storeCreditAccount.findMany({ where: { organizationId: ctx.organization.id, customerId }, orderBy: { currency: 'asc' }, select: { currency: true, balance: true } }),
    ctx.db.storeCreditEntry.findMany({ where: { organizationId: ctx.organization.id, customerId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: ENTRY_PAGE }),
  ]);
  return { customerId, balances: accounts, entries };
}

export async function myStoreCredit(ctx: ServiceContext): Promise<StoreCreditView> {
  const actor = ctx.actor;
  if (!actor) throw new AppError('UNAUTHORIZED', 'Sign in: /me needs a customer session');
  const customer = await ctx.db.customer.findFirst({ where: { id: actor.userId, organizationId: ctx.organization.id }, select: { id: true } });
  if (!customer) throw new AppError('FORBIDDEN', 'This account has no customer profile: /me is for customers');
  return storeCreditOf(ctx, customer.id);
}

async function requireCustomer(ctx: ServiceContext, customerId: string): Promise<void> {
  const found = await ctx.db.customer.count({ where: { id: customerId, organizationId: ctx.organization.id } });
  if (!found) throw notFound('Customer');
}

export async function customerStoreCredit(ctx: ServiceContext, customerId: string): Promise<StoreCreditView> {
  await requireCustomer(ctx, customerId);
  return storeCreditOf(ctx, customerId);
}

export async function staffMoveStoreCredit(
  ctx: ServiceContext,
  customerId: string,
  input: { type: 'credit' | 'debit'; amount: number; currency: string; reason: string },
): Promise<StoreCreditView> {
  await requireCustomer(ctx, customerId);
  await withTransaction(ctx, async (tx) => {
    const move = {
      organizationId: ctx.organization.id,
      customerId,
      amount: input.amount,
      currency: input.currency,
      reason: input.reason,
      sourceType: 'staff',
      sourceId: null,
      actor: ctx.actor?.userId ?? null,
    };
    const entry = input.type === 'credit' ? await creditStoreCredit(tx, move) : await debitStoreCredit(tx, move);
    await recordEvent(tx, originOf(ctx), 'storecredit.move', {
      customerId,
      currency: entry.currency,
      amount: Number(entry.amount),
      balanceAfter: Number(entry.balanceAfter),
      reason: entry.reason,
      sourceType: entry.sourceType,
    });
  });
  return storeCreditOf(ctx, customerId);
}
