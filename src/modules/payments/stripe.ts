// The Stripe adapter: PaymentIntents confirmed at checkout with the shopper's PaymentMethod,
// refunds against the intent, both with idempotency keys, and webhook verification with the
// endpoint's signing secret.
import type Stripe from 'stripe';
import { lazyModule } from '../../lazy.js';
import type { CreatePaymentInput, CreatePaymentResult, PaymentAdapter, RefundInput, RefundResult } from './adapter.js';
import { verifyStripeSignature } from './signature.js';
import { tracedFetch, tracingActive } from '../../observability/trace-context.js';

const StripeSdk = lazyModule<typeof Stripe>('stripe');

export class StripePaymentAdapter implements PaymentAdapter {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string,
    options: { timeoutMs: number; apiBase?: string | undefined },
  ) {
    const Sdk = StripeSdk();
    // A Stripe-compatible server instead of api.stripe.com (STRIPE_API_BASE: stripe-mock in development).
    const base = options.apiBase ? new URL(options.apiBase) : null;
    // Retries reuse the idempotency key, so a timeout never turns into a second charge.
    this.stripe = new Sdk(secretKey, {
      timeout: options.timeoutMs,
      maxNetworkRetries: 2,
      ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'http:' ? '80' : '443'), protocol: base.protocol === 'http:' ? 'http' : 'https' } : {}),
      // With tracing on, the SDK's calls go through fetch in a client span carrying traceparent
      // (its own node:http client is invisible to the tracing, which hooks no ES-module http).
      ...(tracingActive() ? { httpClient: Sdk.createFetchHttpClient(tracedFetch(fetch, 'payments stripe')) } : {}),
    });
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency.toLowerCase(),
          payment_method: input.paymentMethodId,
          confirm: true,
          // Server-side confirmation: no redirect-based methods, so no return_url is needed.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          metadata: { orderId: input.orderId, organizationId: input.organizationId },
          ...(input.customerEmail ? { receipt_email: input.customerEmail } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (intent.status === 'canceled' || intent.status === 'requires_payment_method') {
        const error = intent.last_payment_error;
        return { ok: false, code: error?.code ?? 'payment_failed', declineCode: error?.decline_code ?? undefined, message: error?.message ?? 'The payment failed.' };
      }
      const known = ['succeeded', 'processing', 'requires_capture'] as const;
      const status = known.find((s) => s === intent.status) ?? 'requires_action';
      return { ok: true, intentId: intent.id, status };
    } catch (error) {
      if (error instanceof StripeSdk().errors.StripeCardError) {
        return { ok: false, code: error.code ?? 'card_declined', declineCode: error.decline_code ?? undefined, message: error.message };
      }
      if (error instanceof StripeSdk().errors.StripeInvalidRequestError) {
        return { ok: false, code: error.code ?? 'invalid_request', message: error.message };
      }
      throw error;
    }
  }

  async cancelPayment(intentId: string, idempotencyKey: string): Promise<void> {
    await this.stripe.paymentIntents.cancel(intentId, {}, { idempotencyKey });
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: input.intentId, amount: input.amount, metadata: input.metadata },
        { idempotencyKey: input.idempotencyKey },
      );
      if (refund.status === 'failed' || refund.status === 'canceled') return { ok: false, code: refund.failure_reason ?? 'refund_failed', message: `Refund ${refund.status}` };
      return { ok: true, refundId: refund.id, status: refund.status ?? 'pending' };
    } catch (error) {
      if (error instanceof StripeSdk().errors.StripeInvalidRequestError) return { ok: false, code: error.code ?? 'invalid_request', message: error.message };
      throw error;
    }
  }

  verifyWebhook(rawBody: string, signatureHeader: string) {
    return verifyStripeSignature(rawBody, signatureHeader, this.webhookSecret);
  }
}
