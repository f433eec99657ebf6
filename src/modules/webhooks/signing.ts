// Standard Webhooks signatures (https://www.standardwebhooks.com), with node:crypto:
//   webhook-id         the message id: the same on every attempt of a delivery (receivers dedupe on it)
//   webhook-timestamp  seconds since the epoch
//   webhook-signature  `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed with the
//                      base64-decoded part of the `whsec_` secret; space-separated when several
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** How far a receiver should accept a timestamp from its clock (the standard's suggestion). */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** A new signing secret: whsec_ + 32 random bytes in base64. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The `v1,<base64>` signature of one message. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export function signatureHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': sign(secret, id, timestampSeconds, body),
  };
}

/**
 * What a receiver does: true when one of the `v1` signatures matches and the timestamp is within
 * the tolerance. Exported for integrators' tests and our own.
 */
export function verify(
  secret: string,
  headers: { 'webhook-id'?: string | null; 'webhook-timestamp'?: string | null; 'webhook-signature'?: string | null },
  body: string,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): boolean {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  const signatures = headers['webhook-signature'];
  if (!id || !Number.isInteger(timestamp) || !signatures) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(sign(secret, id, timestamp, body).slice(3), 'base64');
  return signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
