// Checkout idempotency keys, as Stripe's: the key (body `idempotencyKey` or the
// `Idempotency-Key` header) is stored with a sha256 of the normalized request it came with. The
// same key and the same request replay the first order; the same key with another request (a
// different cart, address, payment method...) is 422 IDEMPOTENCY_KEY_REUSED, never a silent
// replay of an order the caller did not ask for this time.
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Object keys sorted, null and undefined dropped: `{a:1,b:null}` and `{a:1}` are one request. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] != null)
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** The hash of the request a key is bound to: every input but the key itself, normalized. */
export function checkoutRequestHash(input: Record<string, unknown> & { promotionCodes?: string[] | null }): string {
  const { idempotencyKey: _key, ...request } = input;
  // Codes are matched trimmed and once each by the checkout itself, so " A" and "A" ask the same.
  const codes = request.promotionCodes ? [...new Set(request.promotionCodes.map((c) => c.trim()).filter(Boolean))] : undefined;
  return createHash('sha256')
    .update(JSON.stringify(canonical({ ...request, promotionCodes: codes })))
    .digest('hex');
}

/**
 * The key of this checkout: the body field, else the header. Both, disagreeing, is bad input
 * (which one would the client expect us to honour?).
 */
export function checkoutIdempotencyKey(bodyKey: string | null | undefined, headers: Headers | undefined): string | null {
  const header = headers?.get(IDEMPOTENCY_KEY_HEADER)?.trim() || null;
  if (header && header.length > 255) throw new AppError('VALIDATION_FAILED', 'Input validation failed', [{ field: IDEMPOTENCY_KEY_HEADER, message: 'at most 255 characters' }]);
  if (bodyKey && header && bodyKey !== header) {
    throw new AppError('VALIDATION_FAILED', 'Input validation failed', [{ field: 'idempotencyKey', message: `differs from the ${IDEMPOTENCY_KEY_HEADER} header: send one key` }]);
  }
  return bodyKey ?? header;
}

/** `orderId`: the order the key made. The key is the caller's own (keys are scoped per caller), so naming it leaks nothing, and lets a client that lost its first answer find its order. */
export function idempotencyKeyReused(key: string, orderId: string): AppError {
  return new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used with a different request; use a new key for a new request', {
    idempotencyKey: key,
    orderId,
  });
}
