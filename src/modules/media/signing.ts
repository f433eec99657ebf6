// Signed media URLs: `/api/media/<id>/content?expires=<unix seconds>&signature=<HMAC>`. The
// server verifies the HMAC and the expiry when the URL is fetched (403 otherwise), so a link
// handed to a shopper (a product image, a digital download) works until it expires and cannot
// be altered to reach another asset. The key is derived from the auth secret: one secret to
// rotate, and a media signature can never double as a session signature.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config/index.js';
import { resolveAuthSecret } from '../../auth/secret.js';

const keys = new WeakMap<Config, Buffer>();

function signingKey(config: Config): Buffer {
  let key = keys.get(config);
  if (!key) {
    key = createHmac('sha256', resolveAuthSecret(config)).update('commerce media url signing v1').digest();
    keys.set(config, key);
  }
  return key;
}

function signature(config: Config, assetId: string, expires: number): string {
  return createHmac('sha256', signingKey(config)).update(`${assetId.toLowerCase()}:${expires}`).digest('base64url');
}

function publicBase(config: Config): string {
  return (config.baseUrl ?? `http://localhost:${config.port}`).replace(/\/$/, '');
}

export interface SignedUrl {
  url: string;
  expiresAt: Date;
}

/**
 * A URL that serves the asset's bytes until it expires (default: media.signedUrlTtlSeconds).
 * For other modules (digital downloads in the customer portal, documents).
 */
export function signMediaUrl(config: Config, assetId: string, ttlSeconds = config.media.signedUrlTtlSeconds, now = Date.now()): SignedUrl {
  const expires = Math.floor(now / 1000) + ttlSeconds;
  const query = new URLSearchParams({ expires: String(expires), signature: signature(config, assetId, expires) });
  return { url: `${publicBase(config)}/api/media/${assetId.toLowerCase()}/content?${query}`, expiresAt: new Date(expires * 1000) };
}

/** Why a fetched URL is refused, or null when its signature is valid and unexpired. */
export function verifyMediaUrl(config: Config, assetId: string, expiresRaw: string | null, signatureRaw: string | null, now = Date.now()): string | null {
  if (!expiresRaw || !signatureRaw || !/^\d{1,12}$/.test(expiresRaw)) return 'this media URL is not signed';
  const expected = Buffer.from(signature(config, assetId, Number(expiresRaw)));
  const given = Buffer.from(signatureRaw);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'this media URL has an invalid signature';
  if (Number(expiresRaw) * 1000 <= now) return 'this media URL has expired';
  return null;
}
