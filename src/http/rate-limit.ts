// Rate limits keyed by credential: the API key or user when authenticated (generous: one
// storefront server renders for many shoppers), the client address otherwise (modest), and
// sign-in attempts per email and per client address (strict). In memory by default; shared through Redis when
// REDIS_URL is set, so several server instances enforce one budget.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ioredis } from '../lazy.js';
import type { Config } from '../config/index.js';
import { AppError } from '../errors.js';

export type Budget = 'authenticated' | 'anonymous' | 'signIn' | 'authAddress' | 'guess';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the window resets. */
  reset: number;
  /** Seconds to wait, set when refused. */
  retryAfter?: number;
}

export interface RateLimiter {
  /** Takes `points` (default 1) from the key's budget; refused when fewer remain. */
  consume(budget: Budget, key: string, points?: number): Promise<RateDecision>;
  close(): Promise<void>;
}

function decision(points: number, res: RateLimiterRes, allowed: boolean): RateDecision {
  const reset = Math.ceil((Date.now() + res.msBeforeNext) / 1000);
  return {
    allowed,
    limit: points,
    remaining: Math.max(0, res.remainingPoints),
    reset,
    retryAfter: allowed ? undefined : Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

export function createRateLimiter(config: Config): RateLimiter {
  const redis = config.redisUrl ? new (ioredis().Redis)(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }) : null;
  redis?.on('error', () => undefined); // reported through the insurance limiter below
  const budgets = config.rateLimit;
  const limiters = new Map<Budget, RateLimiterAbstract>();
  for (const budget of ['authenticated', 'anonymous', 'signIn', 'authAddress', 'guess'] as const) {
    const { points, durationSeconds } = budgets[budget];
    const base = { keyPrefix: `${budgets.keyPrefix}:${budget}`, points, duration: durationSeconds };
    limiters.set(
      budget,
      redis
        ? // When Redis is unreachable each instance falls back to its own memory budget rather
          // than refusing every request or letting every request through.
          new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter: new RateLimiterMemory(base) })
        : new RateLimiterMemory(base),
    );
  }

  return {
    async consume(budget, key, cost = 1) {
      const points = budgets[budget].points;
      if (!budgets.enabled) return { allowed: true, limit: points, remaining: points, reset: Math.ceil(Date.now() / 1000) };
      try {
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        return decision(points, await limiters.get(budget)!.consume(key, cost), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(points, rejection, false);
        throw rejection;
      }
    },
    async close() {
      redis?.disconnect();
    },
  };
}

/** The decision's numbers on the answer (X-RateLimit-*, and Retry-After when refused). */
export function setRateLimitHeaders(headers: Pick<Headers, 'set'>, d: RateDecision): void {
  headers.set('x-ratelimit-limit', String(d.limit));
  headers.set('x-ratelimit-remaining', String(d.remaining));
  headers.set('x-ratelimit-reset', String(d.reset));
  if (d.retryAfter !== undefined) headers.set('retry-after', String(d.retryAfter));
}

/**
 * The rate budget of one request's caller, for charges made after the request was admitted:
 * a GraphQL operation's cost beyond its first point, and attempts at guessable values. `last` is
 * the newest decision, whose numbers the response headers carry.
 */
export interface RequestRateLimit {
  /**
   * Charges `points` to the caller's budget (the request's own, or `budget`, e.g. 'guess');
   * throws 429 TOO_MANY_REQUESTS when it is spent.
   */
  charge(points: number, budget?: Budget): Promise<void>;
  /**
   * One attempt at a guessable value (a promotion code). A request may make one: thirty aliases
   * of the same field in one GraphQL document are thirty guesses for the price of one request,
   * so the second is refused (429). Sessions and anonymous callers also spend their `guess`
   * budget; API keys are servers answering for many shoppers, bounded by their request budget.
   */
  guess(): Promise<void>;
  last?: RateDecision;
  /** Who is charged: `authenticated:key:<id>`, `authenticated:user:<id>` or `anonymous:<address>`. */
  readonly caller: string;
}

export function requestRateLimit(limiter: RateLimiter, keys: { budget: Budget; key: string; apiKey?: boolean }, first?: RateDecision): RequestRateLimit {
  let guesses = 0;
  const state: RequestRateLimit = {
    last: first,
    caller: `${keys.budget}:${keys.key}`,
    async guess() {
      guesses += 1;
      if (guesses > 1) throw new AppError('TOO_MANY_REQUESTS', 'One promotion-code check per request: send each code in a request of its own', { retryAfter: 1 });
      if (!keys.apiKey) await state.charge(1, 'guess');
    },
    async charge(points, budget = keys.budget) {
      if (points <= 0) return;
      // The guess budget is per caller too: the same key as the request's own budget.
      const decided = await limiter.consume(budget, budget === keys.budget ? keys.key : `${keys.budget}:${keys.key}`, points);
      if (budget === keys.budget || !decided.allowed) state.last = decided;
      if (!decided.allowed) {
        throw new AppError(
          'TOO_MANY_REQUESTS',
          budget === 'guess'
            ? 'Too many attempts at guessable values (promotion codes); retry after the number of seconds in Retry-After'
            : 'Rate limit exceeded; retry after the number of seconds in Retry-After',
          { retryAfter: decided.retryAfter ?? 1 },
        );
      }
    },
  };
  return state;
}
