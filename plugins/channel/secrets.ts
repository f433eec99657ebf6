// A store's API key at rest: AES-256-GCM (node:crypto; authenticated, so a tampered value fails
// to decrypt rather than yielding a wrong key) under a key derived from the service's auth
// secret with HKDF — the same one-secret-to-rotate model as API-key signatures and media URLs.
// Rotating the auth secret means re-entering store keys (PATCH /channel/stores/:id).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../../src/config/index.js';
import { resolveAuthSecret } from '../../src/auth/secret.js';

const VERSION = 'v1';

function keyOf(config: Config): Buffer {
  return Buffer.from(hkdfSync('sha256', resolveAuthSecret(config), 'commerce-channel', 'channel store api key v1', 32));
}

export function encryptSecret(config: Config, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

export function decryptSecret(config: Config, stored: string): string {
  const [version, payload] = stored.split(':');
  if (version !== VERSION || !payload) throw new Error('the store API key was stored in an unknown format');
  const raw = Buffer.from(payload, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(config), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('the store API key cannot be decrypted: was the auth secret rotated? Set the key again (PATCH /api/channel/stores/:id)');
  }
}

/** The last four characters, for telling keys apart in listings. */
export function hintOf(key: string): string {
  return `…${key.slice(-4)}`;
}
