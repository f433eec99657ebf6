// The payment provider interface (issue 26): what checkout, capture/void, refunds and the webhook
// receiver need from a provider, in provider-neutral terms. Stripe (stripe.ts), the offline test
// adapter (offline.ts) and further providers (registered by name, chosen by config) implement it.
//
// Conventions every provider keeps:
//   - amounts are integer minor units of `currency` (ISO 4217, upper case here; a provider that
//     wants lower case converts);
//   - every call that can move money carries `idempotencyKey`, derived from our record
//     (`<paymentId>:<op>:<sequence>`, see keys.ts): the same key must never move money twice, so
//     a call retried after a lost answer returns the first call's result;
//   - a refusal the shopper or operator can act on is an answer (`status: 'failed'` /
//     `{ ok: false }`), never a throw; a throw means "unknown outcome" (network, 5xx, timeout) and
//     the caller retries with the same key;
//   - webhooks: `handleEvent` verifies the provider's own signature scheme over the raw body and
//     headers, maps each notification to zero or more `PaymentProviderEvent`s (a provider that
//     batches notifications returns several) and says what HTTP answer the provider expects
//     (Stripe: any 2xx JSON; Adyen: the body "[accepted]").

/** Our payment record's status (payments.status). */
export const PAYMENT_STATUSES = ['pending', 'requires_action', 'authorized', 'captured', 'partially_captured', 'voided', 'failed', 'refunded', 'partially_refunded'] as const;
export type PaymentRecordStatus = (typeof PAYMENT_STATUSES)[number];

/** What the shopper must do before the payment can complete (3-D Secure, a redirect method). */
export type PaymentNextAction =
  /** Send the shopper's browser to `url` (GET); the provider brings them back to the return URL. */
  | { type: 'redirect'; url: string }
  /**
   * Hand `clientSecret` to the provider's client SDK (Stripe.js handleNextAction); `data` carries
   * a provider's structured action object when its SDK takes one instead of a secret.
   */
  | { type: 'sdk'; clientSecret: string; data?: Record<string, unknown> };

/** How the shopper pays: a provider token / payment method id, plus structured details if the provider takes them. */
export interface PaymentMethodData {
  /** Stripe: a PaymentMethod id (pm_...); the offline adapter: Stripe's test ids. */
  id: string;
  /** Provider-specific structured method data (e.g. Adyen's encrypted card fields object). */
  details?: Record<string, unknown>;
}

export interface AuthorizeInput {
  /** Our payment record (payments.id): metadata, and the root of every idempotency key. */
  paymentId: string;
  orderId: string;
  organizationId: string;
  amount: number;
  currency: string;
  method: PaymentMethodData;
  idempotencyKey: string;
  /** true: authorize and capture in one (automatic capture); false: authorize only. */
  capture: boolean;
  /** Where the provider sends the shopper back after a redirect / 3-D Secure challenge. */
  returnUrl: string;
  customerEmail?: string | null;
}

export interface PaymentFailure {
  /** The provider's code (card_declined, expired_card, Refused, ...). */
  code: string;
  /** Fit for the shopper, e.g. "Your card was declined." */
  message: string;
  declineCode?: string;
}

export interface AuthorizeResult {
  status: 'authorized' | 'captured' | 'requires_action' | 'failed' | 'pending';
  /** The provider's id of the payment (Stripe: the PaymentIntent id; Adyen: the pspReference). null only when it failed before the provider kept anything. */
  providerReference: string | null;
  nextAction?: PaymentNextAction;
  failure?: PaymentFailure;
  /** When the authorization lapses, if the provider says. */
  expiresAt?: Date;
  /** What was captured when status is captured (defaults to the amount asked). */
  capturedAmount?: number;
}

export type OperationResult =
  | {
      ok: true;
      /** The provider's id of this operation (a refund id; the payment reference for capture/void). */
      providerReference: string;
      /** succeeded: done; pending: accepted, the outcome arrives as an event. */
      status: 'succeeded' | 'pending';
    }
  | {
      ok: false;
      code: string;
      message: string;
      /** true: the same call may succeed later (provider down, rate limited); false: a final refusal. */
      retryable: boolean;
    };

export interface CaptureInput {
  paymentId: string;
  providerReference: string;
  amount: number;
  currency: string;
  idempotencyKey: string;
  /** true when this capture is the last one: the rest of the authorization is released (Stripe's final capture). */
  final: boolean;
}

export interface VoidInput {
  paymentId: string;
  providerReference: string;
  /** What is still authorized (some providers need it on a cancel). */
  amount: number;
  currency: string;
  idempotencyKey: string;
}

export interface RefundOpInput {
  paymentId: string;
  /** Our refund record (order_refunds.id): metadata, so the provider's refund events name it. */
  refundId: string;
  providerReference: string;
  amount: number;
  currency: string;
  idempotencyKey: string;
  metadata?: Record<string, string>;
}

export interface ConfirmInput {
  paymentId: string;
  providerReference: string;
  /** What the provider put on the return URL, or what the storefront posted after its SDK step. */
  params: Record<string, string>;
  idempotencyKey: string;
}

export type PaymentEventType =
  | 'payment.authorized'
  | 'payment.captured'
  | 'payment.failed'
  | 'payment.voided'
  | 'payment.refunded'
  | 'payment.refund_failed'
  | 'payment.expired'
  | 'payment.requires_action'
  /** Verified but nothing we act on: recorded once, answered. */
  | 'ignored';

/** A verified provider notification in our terms. */
export interface PaymentProviderEvent {
  /** Unique per provider and notification (Stripe: evt_...; Adyen: pspReference + eventCode + success). */
  id: string;
  type: PaymentEventType;
  /** The provider's own event name (payment_intent.succeeded, AUTHORISATION ...), kept for the record. */
  providerType: string;
  /** The payment the event is about (the providerReference of our record). */
  providerReference: string | null;
  /** Minor units: what was authorized / captured / refunded by this event. */
  amount?: number;
  currency?: string;
  /** Our payment id when the provider echoes our metadata / merchant reference. */
  paymentId?: string | null;
  /** Our order id when the provider echoes it (older intents carry only this). */
  orderId?: string | null;
  /** Our refund id for refund events, when echoed. */
  refundId?: string | null;
  /** The provider's refund id for refund events. */
  providerRefundReference?: string | null;
  failure?: PaymentFailure;
  /** When the provider says it happened. */
  occurredAt?: Date;
}

export interface HandledEvents {
  events: PaymentProviderEvent[];
  /**
   * The HTTP answer the provider expects, when it expects a particular one (Adyen: "[accepted]").
   * Absent: the receiver answers its own JSON receipt.
   */
  acknowledgement?: { status: number; contentType: string; body: string };
}

/** A missing or bad webhook signature: the receiver answers 400 and changes nothing. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

export interface PaymentProvider {
  /** Stored on payment records (payments.provider) and in payment_events.provider. */
  readonly name: string;
  authorize(input: AuthorizeInput): Promise<AuthorizeResult>;
  capture(input: CaptureInput): Promise<OperationResult>;
  void(input: VoidInput): Promise<OperationResult>;
  refund(input: RefundOpInput): Promise<OperationResult>;
  /** Completes a requires_action payment with the provider's return parameters. */
  confirm(input: ConfirmInput): Promise<AuthorizeResult>;
  /**
   * Verifies the raw webhook body with the provider's scheme and maps it to our events. Throws
   * WebhookSignatureError when it cannot be trusted. `headers` keys are lower case.
   */
  handleEvent(rawBody: string, headers: Record<string, string>): Promise<HandledEvents>;
}

// ── registry ──

export interface ProviderFactoryDeps {
  config: import('../../config/index.js').Config;
  logger: import('../../logger.js').Logger;
  env: NodeJS.ProcessEnv;
}

/**
 * Builds a provider from config, or answers null when it is not configured (no keys): an
 * enabled provider that answers null is a boot error; the default may be `auto`.
 */
export type PaymentProviderFactory = (deps: ProviderFactoryDeps) => PaymentProvider | null;

const factories = new Map<string, PaymentProviderFactory>();

/** Registers a provider by name (at module load). payments.provider / payments.enabled name it. */
export function registerPaymentProvider(name: string, factory: PaymentProviderFactory): void {
  factories.set(name, factory);
}

export function paymentProviderFactory(name: string): PaymentProviderFactory | undefined {
  return factories.get(name);
}

export function registeredPaymentProviders(): string[] {
  return [...factories.keys()];
}
