// What a booted process holds (src/app.ts bootRuntime builds it). A core type, so the HTTP app and
// the modules' seeds can name the parts they take without importing the entry file.
import type { Config } from './config/index.js';
import type { Db, SqlCounter } from './db/client.js';
import type { Auth } from './auth/better-auth.js';
import type { Logger } from './logger.js';
import type { Services } from './services.js';

export interface Runtime {
  config: Config;
  db: Db;
  counter: SqlCounter;
  auth: Auth;
  services: Services;
  logger: Logger;
  databaseUrl: string;
  /**
   * PostgreSQL without a pooler in between (DATABASE_DIRECT_URL, else databaseUrl): what needs a
   * session of its own uses it — LISTEN (worker wake-ups, cache invalidation) and migrations'
   * session-level advisory lock, which PgBouncer in transaction mode cannot hold.
   */
  directUrl: string;
  close(): Promise<void>;
}
