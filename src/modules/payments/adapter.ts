// What the rest of the service needs from a payment provider. Two implementations: Stripe
// (stripe.ts, the `stripe` package) and the offline test adapter (offline.ts), which behaves
// like Stripe's test mode without a network. Both sign and verify webhooks the Stripe way, so
// POST /api/payments/webhook has one code path.

export interface CreatePaymentInput {
  /** The order the charge is for; it travels in the intent's metadata (metadata.orderId). */
  orderId: string;
  organizationId: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  paymentMethodId: string;
  /** Same key, same result: a retried checkout never charges twice. */
  idempotencyKey: string;
  customerEmail?: string | null;
}

export type CreatePaymentResult =
  | {
      ok: true;
      intentId: string;
      /**
       * The provider's intent status. The order is confirmed by the payment_intent.succeeded
       * event, never by this answer: the event is the one source of truth for both adapters.
       */
      status: 'succeeded' | 'processing' | 'requires_action' | 'requires_capture';
    }
  | {
      ok: false;
      /** Stripe's error code (card_declined, expired_card, resource_missing, ...). */
      code: string;
      declineCode?: string;
      /** A message fit for the shopper, e.g. "Your card was declined." */
      message: string;
    };

export interface RefundInput {
  intentId: string;
  amount: number;
  currency: string;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export type RefundResult = { ok: true; refundId: string; status: string } | { ok: false; code: string; message: string };

/** A verified provider event (Stripe's Event shape, the fields we read). */
export interface ProviderEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> & { id?: string; metadata?: Record<string, string> | null; amount_received?: number; amount?: number } };
}

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

export interface PaymentAdapter {
  /** `stripe` or `offline`: stored on the order. */
  readonly name: string;
  createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult>;
  /** Voids an intent that will not be collected (a cancelled order, a rolled-back checkout). */
  cancelPayment(intentId: string, idempotencyKey: string): Promise<void>;
  refund(input: RefundInput): Promise<RefundResult>;
  /** Parses and verifies a webhook body against its Stripe-Signature header; throws WebhookSignatureError. */
  verifyWebhook(rawBody: string, signatureHeader: string): ProviderEvent;
}
