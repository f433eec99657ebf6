// Payment ids that survive a crash (issue 27). Checkout, draft completion, order-edit confirmation
// and exchange settlement authorize at the provider inside their transaction, before it commits.
// If the process dies between the provider's answer and COMMIT, the shopper's (or staff's) retry
// must not authorize a second time: so a payment's id — and with it the provider's idempotency key
// `<payment id>:authorize:1` (keys.ts) — is not random but derived from the logical attempt:
//
//   root     = hash(organization, scope)      scope: the caller's Idempotency-Key, else what the
//                                              attempt is about (a cart, a draft, an edit, a return)
//   payment  = hash(root, n, provider, amount, currency, method, capture mode)
//
// The retry derives the same id, the provider (Stripe, Adyen and the offline provider dedupe by
// key) answers the first call's result, and the order is written with that one authorization.
// What the provider is asked is part of the id: a retry that asks for something else (another
// card, a cart that changed) is a new payment, never a replay of an answer to another question
// (Stripe refuses a key reused with other parameters).
//
// `n` counts the attempts of the root that ended without a payment: the provider declined (its
// answer is final for that key, and a retry — after the shopper topped up the card — must really
// ask again), or the transaction rolled back while the process lived and the authorization was
// given back (releaseAuthorization: a voided authorization must not be reused). Those ends are
// recorded in payment_attempt_ends through the root client, outside the caller's transaction (which
// is rolling back), so the next try gets n + 1. A crash records nothing: the retry reuses n.
import { createHash } from 'node:crypto';
import type { Db, Tx } from '../../db/client.js';

export type AttemptEndReason = 'declined' | 'released';

/** Where an attempt stands: its root and the number of ended attempts before it. */
export interface PaymentAttempt {
  root: string;
  n: number;
}

/** What the provider is asked: a different question is a different payment. */
export interface AttemptQuestion {
  provider: string;
  amount: number;
  currency: string;
  methodId: string;
  captureMode: string;
}

/** A UUID (version 8: custom) from a digest, so it can be a payments.id. */
function uuidFrom(parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The root of a logical attempt. `scope` names it: `checkout:key:<caller>:<key>:<request hash>`,
 * `checkout:cart:<cart id>`, `draft:<id>`, `edit:<id>`, `exchange:<return id>`.
 */
export function paymentAttemptRoot(organizationId: string, scope: string): string {
  return uuidFrom(['payment-attempt', organizationId, scope]);
}

/** The payment id (and so the provider key) of attempt `n` of `root` asking `question`. */
export function attemptPaymentId(attempt: PaymentAttempt, question: AttemptQuestion): string {
  return uuidFrom(['payment', attempt.root, String(attempt.n), question.provider, String(question.amount), question.currency, question.methodId, question.captureMode]);
}

/** The attempt a new try of `root` is (one statement, in the caller's transaction). */
export async function currentAttempt(tx: Tx, root: string): Promise<PaymentAttempt> {
  const [row] = await tx.$queryRaw<Array<{ n: number }>>`select coalesce(max(attempt) + 1, 0)::int as n from payment_attempt_ends where root = ${root}::uuid`;
  return { root, n: row?.n ?? 0 };
}

/** Records ended attempts through the root client, so the record outlives the caller's rollback. */
export interface PaymentAttemptLedger {
  end(organizationId: string, attempt: PaymentAttempt, reason: AttemptEndReason): Promise<void>;
}

export function createPaymentAttemptLedger(db: Db): PaymentAttemptLedger {
  return {
    async end(organizationId, attempt, reason) {
      // Two tries that ended the same attempt (a duplicate request) record it once.
      await db.$executeRaw`
        insert into payment_attempt_ends (root, attempt, organization_id, reason)
        values (${attempt.root}::uuid, ${attempt.n}, ${organizationId}::uuid, ${reason})
        on conflict (root, attempt) do nothing`;
    },
  };
}

declare module '../../services.js' {
  interface Services {
    /** Ended payment attempts (payments/attempts.ts), written outside the caller's transaction. */
    paymentAttempts: PaymentAttemptLedger;
  }
}
