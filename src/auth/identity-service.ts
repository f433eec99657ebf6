// ctx.services.identity: what request handlers (the point-of-sale plugin's PIN login) may do with
// identity without reaching into the HTTP layer — mint an API key the way the CLI does (hashed by
// better-auth, signed with the grant signature the actor resolver checks) and revoke keys.
// The better-auth instance is created in bootRuntime, after the database; it is handed to the
// services there, so any process that boots the runtime (server, worker, CLI) has it.
import type { Config } from '../config/index.js';
import type { Db, Tx } from '../db/client.js';
import { AppError } from '../errors.js';
import { AccountError, mintApiKey, type MintKeyInput } from './accounts.js';
import { noteApiKeysRevoked } from './actor.js';
import type { Auth } from './better-auth.js';

export interface MintedKey {
  /** The key itself: shown once, never stored (only its hash is). */
  key: string;
  id: string;
  scope: string;
  expiresAt: Date | null;
  userId: string;
}

export interface IdentityService {
  /**
   * Mints a key under a declared API-key scope. `db` may be the caller's transaction: the grant
   * signature is written through it, so a key whose transaction rolls back stays unsigned and
   * grants nothing.
   */
  mintApiKey(db: Db | Tx, input: MintKeyInput): Promise<MintedKey>;
  /** Disables keys (within the caller's transaction) and stops this process's key cache serving them. */
  revokeApiKeys(db: Db | Tx, ids: readonly string[]): Promise<number>;
}

export function createIdentityService(auth: Auth | null, config: Config): IdentityService {
  return {
    async mintApiKey(db, input) {
      if (!auth) throw new AppError('SERVICE_UNAVAILABLE', 'API keys cannot be minted in this process (no identity instance)');
      try {
        return await mintApiKey({ auth, config, db }, input);
      } catch (error) {
        // A scope or owner the plugin named that does not exist is a server-side mistake, not the caller's.
        if (error instanceof AccountError) throw new AppError('SERVICE_UNAVAILABLE', error.message);
        throw error;
      }
    },
    async revokeApiKeys(db, ids) {
      if (!ids.length) return 0;
      noteApiKeysRevoked(ids);
      const { count } = await db.apikey.updateMany({ where: { id: { in: [...ids] } }, data: { enabled: false } });
      return count;
    },
  };
}

// ctx.services.identity: the core's Services registry (src/services.ts) is filled where each service is defined, by declaration merging.
declare module '../services.js' {
  interface Services {
    /** Mint and revoke API keys from a handler (the point-of-sale plugin's per-shift keys). */
    identity: IdentityService;
  }
}
