// Operator-side identity actions (the CLI uses them): create users with a role, mint API keys.
// Both go through better-auth so passwords and keys are hashed the one way it does.
import type { Config } from '../config/index.js';
import type { Db, Tx } from '../db/client.js';
import { hashApiKey } from './key-hash.js';
import { authCall, type Auth } from './better-auth.js';
import { signKeyGrant } from './key-signature.js';

import { MIN_API_KEY_TTL_SECONDS } from './api-key-rules.js';

export { MIN_API_KEY_TTL_SECONDS };

export class AccountError extends Error {
  override name = 'AccountError';
}

export interface CreateUserInput {
  email: string;
  password: string;
  name: string;
  role: string;
  organizationId: string;
}

export async function createUser(deps: { auth: Auth; config: Config }, input: CreateUserInput) {
  if (!deps.config.auth.roles[input.role]) {
    throw new AccountError(`unknown role ${input.role}; configured roles: ${Object.keys(deps.config.auth.roles).join(', ')}`);
  }
  try {
    const result = await authCall(() => deps.auth.api.signUpEmail({ body: { email: input.email, password: input.password, name: input.name } }), {
      organizationId: input.organizationId,
      role: input.role,
    });
    return result.user as { id: string; email: string; name: string; role: string; organizationId: string };
  } catch (error) {
    throw new AccountError(`could not create user ${input.email}: ${(error as Error).message}`);
  }
}

/**
 * The user a key is minted for when no --user is given: one service account per organization
 * that has no password, so it can hold keys but never sign in.
 */
async function serviceUser(db: Db | Tx, organizationId: string) {
  const email = `service+${organizationId}@commerce.invalid`;
  return db.user.upsert({
    where: { email },
    create: { id: crypto.randomUUID(), email, name: 'API keys service account', role: 'admin', organizationId, emailVerified: true },
    update: {},
  });
}

export interface MintKeyInput {
  scope: string;
  name?: string;
  ttlSeconds?: number;
  userEmail?: string;
  /** The owner by id (plugins minting for a known user); wins over userEmail. */
  userId?: string;
  organizationId: string;
  /**
   * Shortest ttl accepted, in seconds (default the CLI's MIN_API_KEY_TTL_SECONDS). A scope with a
   * shorter keyExpiration.minExpiresIn (the point-of-sale shift keys: 1/96 day) passes its own.
   */
  minTtlSeconds?: number;
}

export async function mintApiKey(deps: { auth: Auth; config: Config; db: Db | Tx }, input: MintKeyInput) {
  const scope = deps.config.apiKeyScopes[input.scope];
  if (!scope) throw new AccountError(`unknown scope ${input.scope}; declared scopes: ${Object.keys(deps.config.apiKeyScopes).join(', ')}`);
  const minTtl = input.minTtlSeconds ?? MIN_API_KEY_TTL_SECONDS;
  if (input.ttlSeconds !== undefined && (!Number.isInteger(input.ttlSeconds) || input.ttlSeconds < minTtl)) {
    throw new AccountError(`--ttl must be a whole number of seconds, at least ${minTtl}`);
  }
  const user = input.userId
    ? await deps.db.user.findUnique({ where: { id: input.userId } })
    : input.userEmail
      ? await deps.db.user.findUnique({ where: { email: input.userEmail.toLowerCase() } })
      : await serviceUser(deps.db, input.organizationId);
  if (!user) throw new AccountError(`no user ${input.userId ?? input.userEmail}`);
  if (user.organizationId !== input.organizationId) throw new AccountError(`user ${user.email} belongs to another organization`);
  try {
    const created = await authCall(() =>
      deps.auth.api.createApiKey({
        body: {
          configId: input.scope,
          name: input.name,
          expiresIn: input.ttlSeconds ?? null,
          userId: user.id,
          metadata: { organizationId: input.organizationId, role: user.role },
        },
      }),
    );
    // The grant's signature (auth/key-signature.ts): without it the actor resolver refuses the key.
    const grant = { hashedKey: hashApiKey(created.key), scope: input.scope, organizationId: input.organizationId, userId: user.id };
    const signature = signKeyGrant(authSecret(deps.auth), grant);
    await deps.db.apikey.update({
      where: { id: created.id },
      data: { metadata: JSON.stringify({ organizationId: input.organizationId, role: user.role, signature }) },
    });
    return { key: created.key, id: created.id, scope: input.scope, expiresAt: created.expiresAt, userId: user.id };
  } catch (error) {
    throw new AccountError(`could not create the key: ${(error as Error).message}`);
  }
}

/** The secret better-auth signs with; API-key grants are signed with a key derived from it. */
export function authSecret(auth: Auth): string {
  const secret = (auth.options as { secret?: string }).secret;
  if (!secret) throw new AccountError('the auth secret is not configured');
  return secret;
}
