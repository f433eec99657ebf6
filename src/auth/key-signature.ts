// Every API key the server mints carries a signature over what it grants (the key's hash, its
// scope, its organization and its owner), made with a key derived from the auth secret and
// stored in the key's metadata. The actor resolver refuses a key whose signature is missing or
// wrong. Why: better-auth's own /api-key/create endpoint used to be reachable and let any
// signed-in user mint keys with arbitrary metadata (any organization, any scope); those keys, and
// any row written to the table by other means, carry no valid signature and grant nothing.
// Consequence: rotating BETTER_AUTH_SECRET also retires every API key (mint new ones).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface KeyGrant {
  /** The key's hash as stored (better-auth's default hasher). */
  hashedKey: string;
  scope: string;
  organizationId: string;
  userId: string;
}

function payload(grant: KeyGrant): string {
  return ['v1', grant.hashedKey, grant.scope, grant.organizationId, grant.userId].join('|');
}

function signingKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('commerce:api-key-signature').digest();
}

export function signKeyGrant(secret: string, grant: KeyGrant): string {
  return createHmac('sha256', signingKey(secret)).update(payload(grant)).digest('base64url');
}

export function verifyKeyGrant(secret: string, grant: KeyGrant, signature: unknown): boolean {
  if (typeof signature !== 'string' || !signature) return false;
  const expected = Buffer.from(signKeyGrant(secret, grant));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
