// A small client for Adyen's Checkout API on fetch: X-API-Key auth, an Idempotency-Key on every
// call that moves money, one deadline per call, and retries of a lost answer with the same key.
// Adyen keeps an idempotent answer for at least 7 days and answers a repeated key with the first
// result, so a retry after a dropped connection never authorises, captures or refunds twice.
import { tracedFetch, tracingActive } from '../../../../observability/trace-context.js';
import type { AdyenAmount, AdyenErrorBody, AdyenModificationResponse, AdyenPaymentDetailsRequest, AdyenPaymentRequest, AdyenPaymentResponse } from './types.js';

export interface AdyenClientOptions {
  apiKey: string;
  merchantAccount: string;
  /** e.g. https://checkout-test.adyen.com/v71 (no trailing slash needed). */
  apiBase: string;
  /** Deadline for one call, retries included. */
  timeoutMs: number;
  /** Extra attempts after a transport failure or a 5xx/429 (same idempotency key). */
  retries?: number;
  fetch?: typeof fetch;
}

/** Adyen answered with an error body (validation, security, configuration…): the operation did not happen. */
export class AdyenApiError extends Error {
  override name = 'AdyenApiError';
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly errorType: string,
    message: string,
    readonly pspReference?: string,
  ) {
    super(message);
  }
}

/**
 * No usable answer (timeout, connection lost, 5xx after retries). The operation may or may not
 * have happened at Adyen: the caller keeps its record as it was and retries later with the same
 * idempotency key, which returns the first outcome if there was one.
 */
export class AdyenUnavailable extends Error {
  override name = 'AdyenUnavailable';
}

const RETRY_BACKOFF_MS = 150;

export class AdyenClient {
  private readonly base: string;
  private readonly send: typeof fetch;

  constructor(private readonly options: AdyenClientOptions) {
    this.base = options.apiBase.replace(/\/+$/, '');
    const raw = options.fetch ?? fetch;
    this.send = tracingActive() ? tracedFetch(raw, 'payments adyen') : raw;
  }

  get merchantAccount(): string {
    return this.options.merchantAccount;
  }

  payments(body: Omit<AdyenPaymentRequest, 'merchantAccount'>, idempotencyKey: string): Promise<AdyenPaymentResponse> {
    return this.post('/payments', { merchantAccount: this.options.merchantAccount, ...body }, idempotencyKey);
  }

  paymentDetails(body: AdyenPaymentDetailsRequest, idempotencyKey: string): Promise<AdyenPaymentResponse> {
    return this.post('/payments/details', body, idempotencyKey);
  }

  capture(pspReference: string, amount: AdyenAmount, reference: string, idempotencyKey: string): Promise<AdyenModificationResponse> {
    return this.post(`/payments/${encodeURIComponent(pspReference)}/captures`, { merchantAccount: this.options.merchantAccount, amount, reference }, idempotencyKey);
  }

  cancel(pspReference: string, reference: string, idempotencyKey: string): Promise<AdyenModificationResponse> {
    return this.post(`/payments/${encodeURIComponent(pspReference)}/cancels`, { merchantAccount: this.options.merchantAccount, reference }, idempotencyKey);
  }

  refund(pspReference: string, amount: AdyenAmount, reference: string, idempotencyKey: string): Promise<AdyenModificationResponse> {
    return this.post(`/payments/${encodeURIComponent(pspReference)}/refunds`, { merchantAccount: this.options.merchantAccount, amount, reference }, idempotencyKey);
  }

  private async post<T>(path: string, body: unknown, idempotencyKey: string): Promise<T> {
    const deadline = Date.now() + this.options.timeoutMs;
    const attempts = 1 + (this.options.retries ?? 2);
    let last = 'no attempt made';
    for (let attempt = 0; attempt < attempts; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_BACKOFF_MS * attempt, left)));
      let res: Response;
      try {
        res = await this.send(`${this.base}${path}`, {
          method: 'POST',
          headers: {
            'x-api-key': this.options.apiKey,
            'idempotency-key': idempotencyKey,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
        });
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        last = timedOut ? `no answer within ${this.options.timeoutMs} ms` : `connection failed (${(error as Error).message})`;
        continue;
      }
      const text = await res.text().catch(() => null);
      if (text === null) {
        last = 'the connection dropped while reading the answer';
        continue;
      }
      if (res.status >= 500 || res.status === 429) {
        last = `answered ${res.status}`;
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new AdyenUnavailable(`Adyen answered ${res.status} with something other than JSON`);
      }
      if (!res.ok) {
        const e = (parsed ?? {}) as Partial<AdyenErrorBody>;
        throw new AdyenApiError(
          res.status,
          String(e.errorCode ?? res.status),
          String(e.errorType ?? 'unknown'),
          String(e.message ?? `Adyen answered ${res.status}`),
          e.pspReference,
        );
      }
      return parsed as T;
    }
    throw new AdyenUnavailable(`Adyen ${path}: ${last}`);
  }
}
