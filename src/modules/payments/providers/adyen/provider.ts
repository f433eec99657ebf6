// Adyen's Checkout API as a PaymentProvider: /payments to authorise (automatic capture, or
// additionalData.manualCapture for merchants who capture later), /payments/details to finish a
// redirect or 3-D Secure step, /payments/{pspReference}/captures|cancels|refunds to modify, and
// HMAC-signed standard notifications for the outcomes (modifications are asynchronous at Adyen:
// their answers say `received`, the CAPTURE/CANCELLATION/REFUND notification says what happened).
import type { AuthorizeInput, AuthorizeResult, CaptureInput, ConfirmInput, HandledEvents, OperationResult, PaymentProvider, RefundOpInput, VoidInput } from '../../provider.js';
import { WebhookSignatureError } from '../../provider.js';
import { AdyenApiError, AdyenClient, type AdyenClientOptions } from './client.js';
import { verifyNotificationItem } from './hmac.js';
import { authorizeResultOf, capturesAutomatically, eventOf, paymentReference, refundReference } from './mapping.js';
import type { AdyenNotification, AdyenNotificationItem, AdyenPaymentRequest } from './types.js';

export interface AdyenProviderOptions extends AdyenClientOptions {
  hmacKey: string;
}

/** Only these return parameters go to /payments/details (the return URL may carry our own too). */
const DETAIL_KEYS = ['redirectResult', 'threeDSResult', 'payload', 'MD', 'PaRes', 'threeds2.fingerprint', 'threeds2.challengeResult'];

/** The ACK Adyen expects for a delivery it should not resend. */
const ACCEPTED = { status: 200, contentType: 'text/plain; charset=utf-8', body: '[accepted]' };

export class AdyenProvider implements PaymentProvider {
  readonly name = 'adyen';
  private readonly client: AdyenClient;

  constructor(private readonly options: AdyenProviderOptions) {
    this.client = new AdyenClient(options);
  }

  /**
   * The shopper's method: the Drop-in/Components `state.data` (or just its `paymentMethod`) in
   * `method.details`; `method.id` may carry the same object as JSON for callers that only pass a string.
   */
  private methodOf(input: AuthorizeInput): Pick<AdyenPaymentRequest, 'paymentMethod' | 'browserInfo' | 'origin'> | null {
    let details = input.method.details;
    if (!details && input.method.id.trim().startsWith('{')) {
      try {
        details = JSON.parse(input.method.id) as Record<string, unknown>;
      } catch {
        return null;
      }
    }
    if (!details || typeof details !== 'object') return null;
    const state = details.paymentMethod && typeof details.paymentMethod === 'object' ? details : { paymentMethod: details };
    const paymentMethod = state.paymentMethod as Record<string, unknown>;
    if (typeof paymentMethod.type !== 'string') return null;
    return {
      paymentMethod,
      ...(state.browserInfo && typeof state.browserInfo === 'object' ? { browserInfo: state.browserInfo as Record<string, unknown> } : {}),
      ...(typeof state.origin === 'string' ? { origin: state.origin } : {}),
    };
  }

  async authorize(input: AuthorizeInput): Promise<AuthorizeResult> {
    const method = this.methodOf(input);
    if (!method) {
      return {
        status: 'failed',
        providerReference: null,
        failure: {
          code: 'invalid_payment_method',
          message: "Adyen needs the payment method object from Adyen's Drop-in or Components (state.data.paymentMethod) as the payment method details.",
        },
      };
    }
    try {
      const res = await this.client.payments(
        {
          amount: { value: input.amount, currency: input.currency.toUpperCase() },
          // The reference says the capture mode: Adyen echoes it in /payments/details answers and
          // in notifications, which otherwise do not say whether Authorised means captured.
          reference: paymentReference(input.paymentId, input.capture),
          ...method,
          returnUrl: input.returnUrl,
          channel: 'Web',
          ...(input.customerEmail ? { shopperEmail: input.customerEmail } : {}),
          // Automatic: captured at once whatever the merchant account's capture delay (so an
          // Authorised answer is money taken). Manual: authorise only; /captures takes it later.
          ...(input.capture ? { captureDelayHours: 0 } : { additionalData: { manualCapture: 'true' } }),
          metadata: { orderId: input.orderId, organizationId: input.organizationId, paymentId: input.paymentId },
        },
        input.idempotencyKey,
      );
      return authorizeResultOf(res, input.capture, input.amount);
    } catch (error) {
      if (error instanceof AdyenApiError)
        return { status: 'failed', providerReference: error.pspReference ?? null, failure: { code: error.errorCode, message: shopperMessage(error), declineCode: error.message } };
      throw error;
    }
  }

  async confirm(input: ConfirmInput): Promise<AuthorizeResult> {
    const details = Object.fromEntries(
      DETAIL_KEYS.flatMap((k) => {
        const value = input.params[k];
        return typeof value === 'string' && value ? [[k, value] as const] : [];
      }),
    );
    if (Object.keys(details).length === 0) {
      return {
        status: 'failed',
        providerReference: input.providerReference || null,
        failure: { code: 'missing_details', message: `Adyen's return parameters are missing: expected one of ${DETAIL_KEYS.join(', ')}` },
      };
    }
    try {
      const res = await this.client.paymentDetails({ details }, input.idempotencyKey);
      // Whether Adyen captured was decided at /payments: the merchantReference echoed here says.
      return authorizeResultOf(res, capturesAutomatically(res.merchantReference), res.amount?.value ?? 0);
    } catch (error) {
      if (error instanceof AdyenApiError)
        return {
          status: 'failed',
          providerReference: input.providerReference || null,
          failure: { code: error.errorCode, message: 'The payment could not be completed: start again.', declineCode: error.message },
        };
      throw error;
    }
  }

  async capture(input: CaptureInput): Promise<OperationResult> {
    // The idempotency key (`<paymentId>:capture:<n>`) is also the capture's reference, so the
    // CAPTURE notification names our payment.
    return this.modification(
      () => this.client.capture(input.providerReference, { value: input.amount, currency: input.currency.toUpperCase() }, input.idempotencyKey, input.idempotencyKey),
      input.providerReference,
    );
  }

  async void(input: VoidInput): Promise<OperationResult> {
    return this.modification(() => this.client.cancel(input.providerReference, input.idempotencyKey, input.idempotencyKey), input.providerReference);
  }

  async refund(input: RefundOpInput): Promise<OperationResult> {
    const res = await this.modification(
      () => this.client.refund(input.providerReference, { value: input.amount, currency: input.currency.toUpperCase() }, refundReference(input.refundId), input.idempotencyKey),
      null,
    );
    return res;
  }

  /**
   * Modifications answer `received`: accepted, outcome by notification (status pending). A capture
   * or cancel reports the payment's pspReference; a refund its own, which its REFUND notification
   * carries as pspReference.
   */
  private async modification(call: () => Promise<{ pspReference: string; paymentPspReference: string }>, reportAs: string | null): Promise<OperationResult> {
    try {
      const res = await call();
      return { ok: true, providerReference: reportAs ?? res.pspReference, status: 'pending' };
    } catch (error) {
      if (error instanceof AdyenApiError) return { ok: false, code: error.errorCode, message: error.message, retryable: error.status === 429 || error.status >= 500 };
      throw error;
    }
  }

  async handleEvent(rawBody: string, _headers: Record<string, string>): Promise<HandledEvents> {
    let parsed: AdyenNotification;
    try {
      parsed = JSON.parse(rawBody) as AdyenNotification;
    } catch {
      throw new WebhookSignatureError('the body is not JSON');
    }
    const items = Array.isArray(parsed?.notificationItems) ? parsed.notificationItems.map((w) => w?.NotificationRequestItem) : null;
    if (!items || items.length === 0 || items.some((item) => !item || typeof item !== 'object'))
      throw new WebhookSignatureError('not an Adyen notification (notificationItems[].NotificationRequestItem)');
    // Every item is verified before any is acted on: one bad signature refuses the delivery whole.
    items.forEach((item: AdyenNotificationItem, i) => {
      if (!verifyNotificationItem(item, this.options.hmacKey))
        throw new WebhookSignatureError(`notificationItems[${i}]: additionalData.hmacSignature does not match (HMAC key, or a changed payload)`);
    });
    return { events: items.map((item) => eventOf(item, this.options.merchantAccount)), acknowledgement: ACCEPTED };
  }
}

function shopperMessage(error: AdyenApiError): string {
  if (error.errorType === 'security' || error.errorType === 'configuration') return 'Payments are not available right now.';
  return 'The payment details were not accepted. Check them or use another payment method.';
}
