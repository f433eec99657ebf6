// Keys are stored by better-auth's hasher and looked up by ours (src/auth/key-hash.ts, synchronous
// for speed): the two must agree for every key, or every API key stops working.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { defaultKeyHasher } from '@better-auth/api-key';
import { hashApiKey } from '../../src/auth/key-hash.js';

describe('API key hash', () => {
  it("equals better-auth's defaultKeyHasher for keys of every shape", async () => {
    const keys = ['cs_admin_abc', '', 'ü-unicode-ключ', ...Array.from({ length: 50 }, (_, i) => `cs_sf_${randomBytes(i + 1).toString('base64url')}`)];
    for (const key of keys) expect(hashApiKey(key), key).toBe(await defaultKeyHasher(key));
  });
});
