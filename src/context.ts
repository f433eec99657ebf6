// What every operation receives as `ctx`: who is asking (actor), for which organization,
// and the tools to answer (db, services, logger, loaders). Built once per request in
// http/context.ts; services take it as their first argument.
import type { Logger } from 'pino';
import type { Config } from './config/index.js';
import type { Db } from './db/client.js';
import type { Actor } from './auth/actor.js';
import type { Services } from './services.js';
import type { RequestRateLimit } from './http/rate-limit.js';

export interface OrganizationRef {
  id: string;
  slug: string;
  name: string;
}

// The database layer's ServiceContext takes these three from the request (db/transaction.ts).
declare module './db/transaction.js' {
  interface RequestScope {
    organization: OrganizationRef;
    actor: Actor | null;
    requestId: string;
  }
}

export interface RequestContext {
  requestId: string;
  request: Request;
  actor: Actor | null;
  organization: OrganizationRef;
  db: Db;
  services: Services;
  logger: Logger;
  config: Config;
  /** The caller's rate budget, for charges beyond the request's first point (HTTP requests only). */
  rateLimit?: RequestRateLimit;
  /** Per-request DataLoader cache keyed by loader name (see graphql/loaders.ts). */
  loaders: Map<string, unknown>;
  /**
   * REST facade state of this request. `status`: set by an operation whose success status
   * depends on the outcome (201 when the call created the resource, 200 when it already
   * existed), one of the route's `rest.otherStatuses`. A shared object, so the choice survives
   * the context copies Yoga and sofa make; unset means the route's declared status.
   */
  rest: {
    status?: number;
    /**
     * Set when an error of the answer is the database being unavailable (error-masking.ts): the
     * HTTP layer adds Retry-After, also to a GraphQL answer, which stays 200 with the error coded.
     */
    retryAfterSeconds?: number;
    /** Top-level body keys sent as explicit null (the facade passes them on; sofa drops them). */
    nullArgs?: string[];
    /** Set by the facade: the request is a REST route, whose embeds follow `include`, not the selection. */
    facade?: boolean;
    /**
     * Set by the facade: the route's REST-only query values (`rest.queryOnly`, e.g. `include`),
     * taken out of the query string because they are not GraphQL arguments. A repeated key keeps
     * every value (a list, which its string schema refuses with 422).
     */
    queryArgs?: Record<string, string | string[]>;
  };
}
