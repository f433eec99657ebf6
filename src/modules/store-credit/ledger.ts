// Store credit ledger: the one place a customer's store credit balance moves. Other modules
// (returns, order edits, checkout, staff) call creditStoreCredit / debitStoreCredit with their own
// transaction client, so the balance move commits with the write that caused it.
//
// Concurrency: each move locks the account row (SELECT ... FOR UPDATE) before reading the
// balance, so two debits racing for the last credit apply one at a time and the second sees the
// first's result (409 CONFLICT, reason INSUFFICIENT_STORE_CREDIT). The balance column has a CHECK
// (>= 0) behind it. A credit creates the account on first use (INSERT ... ON CONFLICT DO NOTHING,
// then the lock), so two first credits racing do not collide on the unique key.
import { AppError } from '../../errors.js';
import type { Tx } from '../../db/client.js';

export interface StoreCreditMove {
  organizationId: string;
  /** Customer.id of the organization's customer. */
  customerId: string;
  /** Minor units, > 0. */
  amount: bigint | number;
  /** ISO 4217, upper case. */
  currency: string;
  /** Shown to the customer in their ledger. */
  reason: string;
  /** What caused the move: staff, refund, return, order_edit, checkout... */
  sourceType: string;
  sourceId?: string | null;
  /** The user (or API key) that acted; null for the system. */
  actor?: string | null;
}

export interface StoreCreditEntryView {
  id: string;
  customerId: string;
  currency: string;
  /** Signed: credits positive, debits negative. */
  amount: bigint;
  balanceAfter: bigint;
  reason: string;
  sourceType: string;
  sourceId: string | null;
  createdAt: Date;
}

interface AccountRow {
  id: string;
  balance: bigint;
}

function positive(amount: bigint | number): bigint {
  const value = BigInt(amount);
  if (value <= 0n) throw new AppError('VALIDATION_FAILED', 'amount must be a positive number of minor units', [{ field: 'amount', message: 'must be > 0' }]);
  return value;
}

async function lockAccount(tx: Tx, move: StoreCreditMove, create: boolean): Promise<AccountRow | null> {
  const currency = move.currency.toUpperCase();
  if (create) {
    await tx.$executeRaw`
      insert into store_credit_accounts (id, organization_id, customer_id, currency, balance)
      values (gen_random_uuid(), ${move.organizationId}::uuid, ${move.customerId}, ${currency}, 0)
      on conflict (organization_id, customer_id, currency) do nothing`;
  }
  const rows = await tx.$queryRaw<AccountRow[]>`
    select id, balance from store_credit_accounts
    where organization_id = ${move.organizationId}::uuid and customer_id = ${move.customerId} and currency = ${currency}
    for update`;
  return rows[0] ?? null;
}

async function applyMove(tx: Tx, move: StoreCreditMove, account: AccountRow, delta: bigint): Promise<StoreCreditEntryView> {
  const balanceAfter = account.balance + delta;
  await tx.$executeRaw`update store_credit_accounts set balance = ${balanceAfter}, updated_at = now() where id = ${account.id}::uuid`;
  const entry = await tx.storeCreditEntry.create({
    data: {
      organizationId: move.organizationId,
      accountId: account.id,
      customerId: move.customerId,
      currency: move.currency.toUpperCase(),
      amount: delta,
      balanceAfter,
      reason: move.reason,
      sourceType: move.sourceType,
      sourceId: move.sourceId ?? null,
      actorId: move.actor ?? null,
    },
  });
  return entry;
}

/** Adds store credit to a customer's balance in `currency` (creating the account). */
export async function creditStoreCredit(tx: Tx, move: StoreCreditMove): Promise<StoreCreditEntryView> {
  const amount = positive(move.amount);
  const account = await lockAccount(tx, move, true);
  if (!account) throw new Error('store credit: the account upserted in this transaction could not be locked');
  return applyMove(tx, move, account, amount);
}

/**
 * Takes store credit from a customer's balance; 409 CONFLICT (reason INSUFFICIENT_STORE_CREDIT,
 * with `available` and `requested`) when the balance is short. The balance never goes negative.
 */
export async function debitStoreCredit(tx: Tx, move: StoreCreditMove): Promise<StoreCreditEntryView> {
  const amount = positive(move.amount);
  const account = await lockAccount(tx, move, false);
  const available = account?.balance ?? 0n;
  if (!account || available < amount) {
    throw new AppError('CONFLICT', `Not enough store credit: ${available} ${move.currency.toUpperCase()} available, ${amount} requested`, {
      reason: 'INSUFFICIENT_STORE_CREDIT',
      fields: ['amount'],
      available: Number(available),
      requested: Number(amount),
      currency: move.currency.toUpperCase(),
    });
  }
  return applyMove(tx, move, account, -amount);
}

/** The balance now (0 when the customer never had credit in that currency). */
export async function storeCreditBalance(db: Pick<Tx, 'storeCreditAccount'>, organizationId: string, customerId: string, currency: string): Promise<bigint> {
  const account = await db.storeCreditAccount.findUnique({
    where: { organizationId_customerId_currency: { organizationId, customerId, currency: currency.toUpperCase() } },
    select: { balance: true },
  });
  return account?.balance ?? 0n;
}
