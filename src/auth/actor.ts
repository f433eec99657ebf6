// Who is calling. The resolver returns null when the credentials were checked and none is
// valid (anonymous), and throws ActorResolutionError when the check itself cannot run (session
// store unreachable, auth tables out of step): a fault must never be treated as anonymous.
// Behaviour recorded at 0.16.0 of the spec's system, kept here.
import type { Config } from '../config/index.js';
import { API_KEY_HEADER, scopePermissions, type Auth } from './better-auth.js';
import { permissionsFromMap, rolePermissions } from './permissions.js';

export interface Actor {
  kind: 'user' | 'apiKey';
  userId: string;
  organizationId: string;
  /** The user's role; for an API key, the role of the user it was minted for. */
  role: string | null;
  permissions: string[];
  apiKeyId?: string;
  /** The API-key scope the key was minted against. */
  scope?: string;
  /** A customer acts on their own records (carts, orders, profile). */
  customerId?: string;
  vendorId?: string;
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

interface VerifiedKey {
  id: string;
  configId: string;
  referenceId: string;
  metadata: Record<string, unknown> | string | null;
  permissions: string | Record<string, string[]> | null;
}

export interface ActorResolver {
  resolve(headers: Headers): Promise<Actor | null>;
}

export function createActorResolver(auth: Auth, config: Config, probe: () => Promise<unknown>): ActorResolver {
  // Each scope mints keys with its own prefix, so the prefix names the better-auth configuration
  // to verify against (longest first, in case one prefix starts another).
  const prefixes = Object.entries(config.apiKeyScopes)
    .map(([name, scope]) => ({ name, prefix: scope.prefix }))
    .sort((a, b) => b.prefix.length - a.prefix.length);

  async function fromApiKey(key: string): Promise<Actor | null> {
    const configId = prefixes.find((p) => key.startsWith(p.prefix))?.name;
    if (!configId) return null;
    let result: { valid: boolean; key: VerifiedKey | null };
    try {
      result = (await auth.api.verifyApiKey({ body: { key, configId } })) as unknown as typeof result;
    } catch (error) {
      if (isCredentialRejection(error)) return null;
      throw new ActorResolutionError('api-key', error);
    }
    if (!result.valid || !result.key) {
      // The plugin reports a lookup that failed (database down) exactly as a wrong key. A wrong
      // key is rare and cheap to double-check: if the store cannot answer, it is a fault.
      await probe().catch((error: unknown) => {
        throw new ActorResolutionError('api-key', error);
      });
      return null;
    }
    const verified = result.key;
    const metadata = (typeof verified.metadata === 'string' ? JSON.parse(verified.metadata) : verified.metadata) as
      | { organizationId?: string; role?: string }
      | null;
    if (!metadata?.organizationId) return null;
    // The scope as configured now wins over the copy stored at minting, so narrowing a scope in
    // config takes effect for existing keys.
    const stored = typeof verified.permissions === 'string' ? (JSON.parse(verified.permissions) as Record<string, string[]>) : verified.permissions;
    const permissions = scopePermissions(config, verified.configId) ?? (stored ? permissionsFromMap(stored) : []);
    return {
      kind: 'apiKey',
      userId: verified.referenceId,
      organizationId: metadata.organizationId,
      role: metadata.role ?? null,
      permissions,
      apiKeyId: verified.id,
      scope: verified.configId,
    };
  }

  async function fromSession(headers: Headers): Promise<Actor | null> {
    let session: { user: { id: string; role?: string | null; organizationId?: string | null } } | null;
    try {
      session = (await auth.api.getSession({ headers })) as typeof session;
    } catch (error) {
      if (isCredentialRejection(error)) return null;
      throw new ActorResolutionError('session', error);
    }
    if (!session?.user?.organizationId) return null;
    const role = session.user.role ?? 'customer';
    return {
      kind: 'user',
      userId: session.user.id,
      organizationId: session.user.organizationId,
      role,
      permissions: rolePermissions(config.auth.roles, role),
      customerId: role === 'customer' ? session.user.id : undefined,
    };
  }

  return {
    async resolve(headers) {
      const key = headers.get(API_KEY_HEADER);
      if (key && config.apiKeys.enabled) return fromApiKey(key);
      const cookie = headers.get('cookie');
      const authorization = headers.get('authorization');
      if (!authorization?.toLowerCase().startsWith('bearer ') && !cookie?.includes(`${config.auth.cookiePrefix}.`)) return null;
      return fromSession(headers);
    },
  };
}
