// The hash an API key is stored and looked up by: SHA-256, base64url without padding — exactly
// better-auth's `defaultKeyHasher` (test/security/key-hash.test.ts proves they agree), computed
// with node:crypto synchronously. better-auth's hasher goes through WebCrypto's async digest, a
// thread-pool round trip per request that cost ~7% of a simple API-key request's CPU (bench
// profile of GET /api/settings/general); the synchronous hash of a 40-byte key takes microseconds,
// and the one-shot hash() a fifth of createHash's (no Hash object per request; Node 20.11, which
// package.json still admits, has no hash() and takes the Hash object).
import crypto from 'node:crypto';

export function hashApiKey(key: string): string {
  return crypto.hash ? crypto.hash('sha256', key, 'base64url') : crypto.createHash('sha256').update(key).digest('base64url');
}
