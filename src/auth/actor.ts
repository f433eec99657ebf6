// Who is calling. The resolver returns null when the credentials were checked and none is
// valid (anonymous), and throws ActorResolutionError when the check itself cannot run (session
// store unreachable, auth tables out of step): a fault must never be treated as anonymous.
// Behaviour recorded at 0.16.0 of the spec's system, kept here.
import type { Config } from '../config/index.js';
import { hashApiKey } from './key-hash.js';
import type { Db } from '../db/client.js';
import { API_KEY_HEADER, authCall, scopePermissions, type Auth } from './better-auth.js';
import { intersectPermissions, permissionsFromMap, rolePermissions, withoutSelfPermissions } from './permissions.js';
import { verifyKeyGrant } from './key-signature.js';
import { extendActor } from './actor-extensions.js';
import { AppError } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { Actor } from './actor-type.js';

export type { Actor } from './actor-type.js';

/** How long a verified API key is trusted without a new lookup. */
export const API_KEY_CACHE_MS = 5_000;

/**
 * Keys revoked by this process (ids → until when the note matters). The verified-key cache of
 * every resolver in the process skips them, so a key revoked here (a rotated point-of-sale PIN
 * retires its shift keys) stops working at the next request once the revoking transaction has
 * committed, not API_KEY_CACHE_MS later. Other processes still honour their cache window.
 */
const revokedKeys = new Map<string, number>();

/** Marks keys as revoked for the verified-key caches of this process (see revokedKeys). */
export function noteApiKeysRevoked(ids: readonly string[]): void {
  const now = Date.now();
  for (const [id, until] of revokedKeys) if (until < now) revokedKeys.delete(id);
  for (const id of ids) revokedKeys.set(id, now + API_KEY_CACHE_MS + 60_000);
}

export class ActorResolutionError extends Error {
  override name = 'ActorResolutionError';
  constructor(
    readonly stage: 'api-key' | 'session',
    cause: unknown,
  ) {
    super(`actor resolution failed at ${stage}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** better-auth reports a wrong credential as an APIError with a 4xx status; anything else is a fault. */
function isCredentialRejection(error: unknown): boolean {
  const status = (error as { statusCode?: number; status?: number | string })?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

export interface ActorResolver {
  resolve(headers: Headers): Promise<Actor | null>;
}

export function createActorResolver(auth: Auth, config: Config, db: Db): ActorResolver {
  const secret = (auth.options as { secret: string }).secret;
  const twoFactor = config.auth.twoFactor;
  // Each scope mints keys with its own prefix, so the prefix names the better-auth configuration
  // to verify against (longest first, in case one prefix starts another).
  const prefixes = Object.entries(config.apiKeyScopes)
    .map(([name, scope]) => ({ name, prefix: scope.prefix }))
    .sort((a, b) => b.prefix.length - a.prefix.length);

  /** Keys whose last-use time was written recently: at most one write per key per minute. */
  const touched = new Map<string, number>();
  /**
   * Verified keys for a few seconds: a storefront server sends thousands of requests a minute
   * with one key, and each would otherwise cost a lookup. A revoked or disabled key stops
   * working within API_KEY_CACHE_MS; an expired one at once (expiry is checked per request).
   */
  const verified = new Map<string, { actor: Actor; expiresAt: number | null; cachedAt: number }>();

  /**
   * Keys are minted by better-auth's API-key plugin (hashed with its own hasher), but checked
   * here with one indexed read: the plugin's verify endpoint writes `lastRequest` on every
   * call, which serializes concurrent requests of one key on a row lock.
   */
  async function fromApiKey(key: string): Promise<Actor | null> {
    const scope = prefixes.find((p) => key.startsWith(p.prefix))?.name;
    if (!scope) return null;
    // Keyed by the key's hash, not the key: the process keeps no API-key secret in memory
    // between requests (a heap snapshot would show it). The SHA-256 costs under a microsecond.
    const hashed = hashApiKey(key);
    const cached = verified.get(hashed);
    const now = Date.now();
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    if (cached && cached.cachedAt > now - API_KEY_CACHE_MS && (cached.expiresAt === null || cached.expiresAt > now) && !revokedKeys.has(cached.actor.apiKeyId!)) {
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      touch(cached.actor.apiKeyId!);
      return cached.actor;
    }
    verified.delete(hashed);
    const actor = await lookupApiKey(hashed, scope);
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    if (actor && !revokedKeys.has(actor.actor.apiKeyId!)) {
      if (verified.size >= 10_000) verified.clear();
      verified.set(hashed, { actor: actor.actor, expiresAt: actor.expiresAt, cachedAt: now });
    }
    return actor?.actor ?? null;
  }

  async function lookupApiKey(hashed: string, scope: string): Promise<{ actor: Actor; expiresAt: number | null } | null> {
    let row: { id: string; configId: string; referenceId: string; enabled: boolean | null; expiresAt: Date | null; metadata: string | null; permissions: string | null } | null;
    try {
      row = await db.apikey.findFirst({
        where: { key: hashed },
        select: { id: true, configId: true, referenceId: true, enabled: true, expiresAt: true, metadata: true, permissions: true },
      });
    } catch (error) {
      throw new ActorResolutionError('api-key', error);
    }
    if (!row || row.enabled === false || row.configId !== scope) return null;
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return null;
    const metadata = row.metadata ? (JSON.parse(row.metadata) as { organizationId?: string; role?: string; signature?: unknown }) : null;
    if (!metadata?.organizationId) return null;
    // Only keys the server minted (CLI, plugins) carry a valid grant signature.
    if (!verifyKeyGrant(secret, { hashedKey: hashed, scope: row.configId, organizationId: metadata.organizationId, userId: row.referenceId }, metadata.signature)) return null;
    touch(row.id);
    // The scope as configured now wins over the copy stored at minting, so narrowing a scope in
    // config takes effect for existing keys.
    const stored = row.permissions ? (JSON.parse(row.permissions) as Record<string, string[]>) : null;
    const base: Actor = {
      kind: 'apiKey',
      userId: row.referenceId,
      organizationId: metadata.organizationId,
      role: metadata.role ?? null,
      // `:own`/`:self` grants name the signed-in shopper's records: a key alone has no shopper,
      // so they take effect only when a session comes with the key (combineKeyAndSession).
      permissions: scopePermissions(config, row.configId) ?? (stored ? permissionsFromMap(stored) : []),
      apiKeyId: row.id,
      scope: row.configId,
    };
    const actor = await extended(base, 'api-key');
    return { actor, expiresAt: row.expiresAt?.getTime() ?? null };
  }

  function touch(id: string): void {
    const now = Date.now();
    if ((touched.get(id) ?? 0) > now - 60_000) return;
    touched.set(id, now);
    if (touched.size > 10_000) touched.clear();
    db.apikey.update({ where: { id }, data: { lastRequest: new Date(now) } }).catch(() => touched.delete(id));
  }

  /**
   * better-auth answers any failure of its session lookup with an APIError "Failed to get session"
   * that drops the database's error, so an outage would read as a bug (500) on the session path
   * while the API-key path, which queries Prisma itself, says 503. One `select 1` on this failure
   * path recovers the reason: the database's own error when it cannot be reached, else the
   * original error.
   */
  async function databaseCause(error: unknown): Promise<unknown> {
    try {
      await db.$queryRaw`select 1`;
      return error;
    } catch (databaseError) {
      return isDatabaseUnavailable(databaseError) ? databaseError : error;
    }
  }

  async function fromSession(headers: Headers): Promise<Actor | null> {
    let session: { user: { id: string; role?: string | null; organizationId?: string | null; twoFactorEnabled?: boolean | null } } | null;
    try {
      session = (await authCall(() => auth.api.getSession({ headers }))) as typeof session;
    } catch (error) {
      if (isCredentialRejection(error)) return null;
      throw new ActorResolutionError('session', await databaseCause(error));
    }
    if (!session?.user?.organizationId) return null;
    const role = session.user.role ?? 'customer';
    return extended(
      {
        kind: 'user',
        userId: session.user.id,
        organizationId: session.user.organizationId,
        role,
        permissions: rolePermissions(config.auth.roles, role),
        customerId: role === 'customer' ? session.user.id : undefined,
        ...(twoFactor.enabled && twoFactor.requiredForRoles.includes(role) && !session.user.twoFactorEnabled ? { twoFactorEnrolmentRequired: true } : {}),
      },
      'session',
    );
  }

  /** Plugins' actor extensions (auth/actor-extensions.ts); a failure there is a resolution fault. */
  async function extended(actor: Actor, stage: 'api-key' | 'session'): Promise<Actor> {
    try {
      return await extendActor(actor, { db, config });
    } catch (error) {
      throw new ActorResolutionError(stage, error);
    }
  }

  return {
    async resolve(headers) {
      const key = headers.get(API_KEY_HEADER);
      const cookie = headers.get('cookie');
      const authorization = headers.get('authorization');
      const hasSession = Boolean(authorization?.toLowerCase().startsWith('bearer ') || cookie?.includes(`${config.auth.cookiePrefix}.`));
      if (key && config.apiKeys.enabled) {
        const keyActor = await fromApiKey(key);
        if (!keyActor) return null;
        // A session beside the key (a storefront app that holds its key and signs a shopper
        // in): the shopper acts, bounded by the key. A session that is not valid (expired,
        // signed out) leaves the key alone acting, as a bad session alone leaves the caller
        // anonymous.
        const session = hasSession ? await fromSession(headers) : null;
        return session ? combineKeyAndSession(keyActor, session) : keyOnly(keyActor);
      }
      if (!hasSession) return null;
      return fromSession(headers);
    },
  };
}

/**
 * The key-only actor of each cached key actor: a storefront key's grants include `:own`/`:self`
 * ones, and filtering them built a new actor on every request of every storefront.
 */
const keyOnlyActors = new WeakMap<Actor, Actor>();

/** A key with no session: its `:own`/`:self` grants have no shopper to name, so they are dropped. */
function keyOnly(actor: Actor): Actor {
  let only = keyOnlyActors.get(actor);
  if (!only) {
    const permissions = withoutSelfPermissions(actor.permissions);
    only = permissions.length === actor.permissions.length ? actor : { ...actor, permissions };
    keyOnlyActors.set(actor, only);
  }
  return only;
}

/**
 * The actor rule for a key and a session together: the session's user is the actor (carts,
 * orders and /me are the shopper's, its role and customer id apply) and the key's scope bounds
 * what it may do: effective permissions are the user's ∩ the key's, so a storefront key never
 * grants more than the shopper has, and an admin key does not lift a customer to admin.
 * Rate budget and idempotency keys are the user's (many shoppers share one storefront key).
 */
export function combineKeyAndSession(key: Actor, session: Actor): Actor {
  if (key.organizationId !== session.organizationId) {
    // 401, not 403: the pair does not identify one caller (neither may be picked silently, the
    // fault issue 24 found), so no actor exists whose rights could be refused; the client must
    // change its credentials. (403 "credentials belong to another organization" is for a known
    // caller reaching a store that is not theirs.)
    throw new AppError('UNAUTHORIZED', 'The API key and the session belong to different organizations: send the key of the store the user signed in to, or only one of them');
  }
  return { ...session, permissions: intersectPermissions(session.permissions, key.permissions), apiKeyId: key.apiKeyId, scope: key.scope };
}
