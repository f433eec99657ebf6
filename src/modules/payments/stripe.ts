// The Stripe provider: PaymentIntents confirmed at checkout with the shopper's PaymentMethod
// (capture_method manual when we only authorize), captures, cancels and refunds against the
// intent, every call with our idempotency key, and webhook verification with the endpoint's
// signing secret. 3-D Secure and redirect methods are allowed: the intent carries return_url, and
// its next_action becomes our nextAction (redirect_to_url → redirect; anything else Stripe.js
// handles → sdk with the client secret).
import type Stripe from 'stripe';
import { lazyModule } from '../../lazy.js';
import type {
  AuthorizeInput,
  AuthorizeResult,
  CaptureInput,
  ConfirmInput,
  HandledEvents,
  OperationResult,
  PaymentNextAction,
  PaymentProvider,
  RefundOpInput,
  VoidInput,
} from './provider.js';
import { WebhookSignatureError } from './provider.js';
import { mapStripeEvent } from './stripe-events.js';
import { SIGNATURE_HEADER, verifyStripeSignature } from './signature.js';
import { tracedFetch, tracingActive } from '../../observability/trace-context.js';

const StripeSdk = lazyModule<typeof Stripe>('stripe');

export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly signatureHeader = SIGNATURE_HEADER;
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string,
    options: { timeoutMs: number; apiBase?: string | undefined },
  ) {
    const Sdk = StripeSdk();
    // A Stripe-compatible server instead of api.stripe.com (STRIPE_API_BASE: stripe-mock in development, a fake in tests).
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

  async authorize(input: AuthorizeInput): Promise<AuthorizeResult> {
    return this.intentCall(() =>
      this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency.toLowerCase(),
          payment_method: input.method.id,
          confirm: true,
          capture_method: input.capture ? 'automatic' : 'manual',
          // Redirect-based methods and 3-D Secure challenges come back to return_url.
          return_url: input.returnUrl,
          metadata: { orderId: input.orderId, organizationId: input.organizationId, paymentId: input.paymentId },
          ...(input.customerEmail ? { receipt_email: input.customerEmail } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
  }

  async confirm(input: ConfirmInput): Promise<AuthorizeResult> {
    // After the shopper's action Stripe has already moved the intent: read it (a confirm
    // that is no longer needed would be refused).
    return this.intentCall(() => this.stripe.paymentIntents.retrieve(input.providerReference));
  }

  private async intentCall(call: () => Promise<Stripe.PaymentIntent>): Promise<AuthorizeResult> {
    try {
      return intentResult(await call());
    } catch (error) {
      const errors = StripeSdk().errors;
      if (error instanceof errors.StripeCardError) {
        const intentId = (error.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent?.id ?? null;
        return {
          status: 'failed',
          providerReference: intentId,
          failure: { code: error.code ?? 'card_declined', message: error.message, ...(error.decline_code ? { declineCode: error.decline_code } : {}) },
        };
      }
      if (error instanceof errors.StripeInvalidRequestError)
        return { status: 'failed', providerReference: null, failure: { code: error.code ?? 'invalid_request', message: error.message } };
      throw error;
    }
  }

  async capture(input: CaptureInput): Promise<OperationResult> {
    return operation(async () => {
      const intent = await this.stripe.paymentIntents.capture(
        input.providerReference,
        // Partial captures: all but the last keep the rest of the authorization (final_capture false).
        { amount_to_capture: input.amount, final_capture: input.final },
        { idempotencyKey: input.idempotencyKey },
      );
      return { ok: true, providerReference: intent.id, status: 'succeeded' };
    });
  }

  async void(input: VoidInput): Promise<OperationResult> {
    return operation(async () => {
      const intent = await this.stripe.paymentIntents.cancel(input.providerReference, {}, { idempotencyKey: input.idempotencyKey });
      return { ok: true, providerReference: intent.id, status: 'succeeded' };
    });
  }

  async refund(input: RefundOpInput): Promise<OperationResult> {
    return operation(async () => {
      const refund = await this.stripe.refunds.create(
        { payment_intent: input.providerReference, amount: input.amount, metadata: { refundId: input.refundId, paymentId: input.paymentId, ...(input.metadata ?? {}) } },
        { idempotencyKey: input.idempotencyKey },
      );
      if (refund.status === 'failed' || refund.status === 'canceled')
        return { ok: false, code: refund.failure_reason ?? 'refund_failed', message: `Refund ${refund.status}`, retryable: true };
      return { ok: true, providerReference: refund.id, status: refund.status === 'succeeded' ? 'succeeded' : 'pending' };
    });
  }

  async handleEvent(rawBody: string, headers: Record<string, string>): Promise<HandledEvents> {
    const signature = headers[SIGNATURE_HEADER];
    if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
    return { events: [mapStripeEvent(verifyStripeSignature(rawBody, signature, this.webhookSecret))] };
  }
}

/** A PaymentIntent in our terms. */
export function intentResult(intent: Stripe.PaymentIntent): AuthorizeResult {
  const ref = intent.id;
  switch (intent.status) {
    case 'succeeded':
      return { status: 'captured', providerReference: ref, capturedAmount: intent.amount_received };
    case 'requires_capture':
      return {
        status: 'authorized',
        providerReference: ref,
        ...(intent.latest_charge && typeof intent.latest_charge === 'object' && intent.latest_charge.payment_method_details?.card?.capture_before
          ? { expiresAt: new Date(intent.latest_charge.payment_method_details.card.capture_before * 1000) }
          : {}),
      };
    case 'processing':
      return { status: 'pending', providerReference: ref };
    case 'requires_action':
      return { status: 'requires_action', providerReference: ref, nextAction: nextActionOf(intent) };
    default: {
      // canceled, requires_payment_method (a failed attempt), requires_confirmation
      const error = intent.last_payment_error;
      return {
        status: 'failed',
        providerReference: ref,
        failure: { code: error?.code ?? 'payment_failed', message: error?.message ?? 'The payment failed.', ...(error?.decline_code ? { declineCode: error.decline_code } : {}) },
      };
    }
  }
}

function nextActionOf(intent: Stripe.PaymentIntent): PaymentNextAction {
  const url = intent.next_action?.redirect_to_url?.url;
  if (url) return { type: 'redirect', url };
  // use_stripe_sdk and the method-specific actions: Stripe.js handleNextAction(clientSecret).
  return { type: 'sdk', clientSecret: intent.client_secret ?? '' };
}

/** Refusals Stripe answers (4xx) are results; network trouble and 5xx are thrown (unknown outcome: retry with the same key). */
async function operation(call: () => Promise<OperationResult>): Promise<OperationResult> {
  try {
    return await call();
  } catch (error) {
    const errors = StripeSdk().errors;
    if (error instanceof errors.StripeInvalidRequestError || error instanceof errors.StripeCardError)
      return { ok: false, code: error.code ?? 'invalid_request', message: error.message, retryable: false };
    if (error instanceof errors.StripeRateLimitError) return { ok: false, code: 'rate_limited', message: error.message, retryable: true };
    throw error;
  }
}
