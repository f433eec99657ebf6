// The offline test adapter: Stripe's test mode without a network. It accepts Stripe's test
// payment method ids — `pm_card_visa` and friends succeed, the `pm_card_chargeDeclined*` family
// declines with Stripe's own codes and messages — and, like Stripe, leaves confirming the order to
// the `payment_intent.succeeded` webhook event (sign it with the webhook secret; see
// signature.ts). It is the default when no Stripe key is configured; production refuses it
// unless payments.provider is set to `offline` on purpose.
import { randomBytes } from 'node:crypto';
import type { CreatePaymentInput, CreatePaymentResult, PaymentAdapter, RefundInput, RefundResult } from './adapter.js';
import { verifyStripeSignature } from './signature.js';

/** Stripe's documented test PaymentMethods that succeed (https://docs.stripe.com/testing). */
const SUCCEEDING = new Set([
  'pm_card_visa',
  'pm_card_visa_debit',
  'pm_card_mastercard',
  'pm_card_mastercard_debit',
  'pm_card_mastercard_prepaid',
  'pm_card_amex',
  'pm_card_discover',
  'pm_card_diners',
  'pm_card_jcb',
  'pm_card_unionpay',
  'pm_card_us',
  'pm_card_gb',
  'pm_card_de',
  'pm_card_fr',
  'pm_card_ca',
  'pm_card_br',
  'pm_card_jp',
]);

/** Declining test PaymentMethods with the code, decline code and message Stripe answers. */
const DECLINES: Record<string, { code: string; declineCode?: string; message: string }> = {
  pm_card_chargeDeclined: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  pm_card_visa_chargeDeclined: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  pm_card_chargeDeclinedInsufficientFunds: { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  pm_card_visa_chargeDeclinedInsufficientFunds: { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  pm_card_chargeDeclinedLostCard: { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  pm_card_visa_chargeDeclinedLostCard: { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  pm_card_chargeDeclinedStolenCard: { code: 'card_declined', declineCode: 'stolen_card', message: 'Your card was declined.' },
  pm_card_visa_chargeDeclinedStolenCard: { code: 'card_declined', declineCode: 'stolen_card', message: 'Your card was declined.' },
  pm_card_chargeDeclinedFraudulent: { code: 'card_declined', declineCode: 'fraudulent', message: 'Your card was declined.' },
  pm_card_visa_chargeDeclinedFraudulent: { code: 'card_declined', declineCode: 'fraudulent', message: 'Your card was declined.' },
  pm_card_chargeDeclinedExpiredCard: { code: 'expired_card', message: 'Your card has expired.' },
  pm_card_chargeDeclinedIncorrectCvc: { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  pm_card_chargeDeclinedProcessingError: { code: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' },
  pm_card_chargeDeclinedVelocityLimitExceeded: { code: 'card_declined', declineCode: 'card_velocity_exceeded', message: 'Your card was declined for making repeated attempts too frequently or exceeding its amount limit.' },
};

/** 3-D Secure cards: the intent waits for the shopper's action, so the order stays awaiting payment. */
const REQUIRES_ACTION = new Set(['pm_card_authenticationRequired', 'pm_card_threeDSecure2Required', 'pm_card_authenticationRequiredOnSetup']);

export interface OfflineCall {
  kind: 'createPayment' | 'cancelPayment' | 'refund';
  idempotencyKey: string;
  at: Date;
  input: Record<string, unknown>;
  result: Record<string, unknown>;
}

/** Keeps idempotent answers like Stripe does (it keeps them 24 h); bounded so memory stays flat. */
const MAX_REMEMBERED = 10_000;

export class OfflinePaymentAdapter implements PaymentAdapter {
  readonly name = 'offline';
  private readonly answers = new Map<string, unknown>();
  /** The most recent calls, newest last: the offline counterpart of Stripe's request log. */
  readonly log: OfflineCall[] = [];

  constructor(private readonly webhookSecret: string) {}

  private remember<T extends Record<string, unknown>>(kind: OfflineCall['kind'], key: string, input: Record<string, unknown>, compute: () => T): T {
    const scoped = `${kind}:${key}`;
    const known = this.answers.get(scoped) as T | undefined;
    if (known) return known;
    const result = compute();
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    if (this.answers.size >= MAX_REMEMBERED) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(scoped, result);
    this.log.push({ kind, idempotencyKey: key, at: new Date(), input, result });
    if (this.log.length > 1000) this.log.splice(0, this.log.length - 1000);
    return result;
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
    return this.remember('createPayment', input.idempotencyKey, { ...input }, (): CreatePaymentResult & Record<string, unknown> => {
      const decline = DECLINES[input.paymentMethodId];
      if (decline) return { ok: false, ...decline };
      if (REQUIRES_ACTION.has(input.paymentMethodId)) return { ok: true, intentId: newId('pi'), status: 'requires_action' };
      if (SUCCEEDING.has(input.paymentMethodId)) return { ok: true, intentId: newId('pi'), status: 'succeeded' };
      return { ok: false, code: 'resource_missing', message: `No such PaymentMethod: '${input.paymentMethodId}'` };
    });
  }

  async cancelPayment(intentId: string, idempotencyKey: string): Promise<void> {
    this.remember('cancelPayment', idempotencyKey, { intentId }, () => ({ ok: true, intentId, status: 'canceled' }));
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    return this.remember('refund', input.idempotencyKey, { ...input }, (): RefundResult & Record<string, unknown> => {
      if (!input.intentId.startsWith('pi_')) return { ok: false, code: 'resource_missing', message: `No such payment_intent: '${input.intentId}'` };
      return { ok: true, refundId: newId('re'), status: 'succeeded' };
    });
  }

  verifyWebhook(rawBody: string, signatureHeader: string) {
    return verifyStripeSignature(rawBody, signatureHeader, this.webhookSecret);
  }
}

function newId(prefix: string): string {
  return `${prefix}_offline_${randomBytes(12).toString('base64url')}`;
}
