// The shared response cache of storefront catalog reads (README: Scaling → Response cache).
//
// Two layers: an LRU in this process, then (REDIS_URL) one Redis hash per organization that
// every API process shares. Invalidation is PostgreSQL LISTEN/NOTIFY, with or without Redis:
// the outbox trigger notifies `commerce_cache` with the organization id at commit (migration
// 20261126016000), so every process learns of every change — written by an API process, the
// worker, the CLI or SQL — only once it is visible, never for a rolled-back write, without the
// writer having to publish anything after its commit (a Redis publish would need every writer to
// hold a Redis client and would fire before or without the commit). Each process then drops the
// organization from its LRU and deletes the organization's Redis hash (one DEL; several
// processes deleting it is harmless). The writing process also drops it itself before answering
// (events/cache-signal.ts), so a caller reads its own write at once through the same process.
//
// A read whose computation overlapped an invalidation is not stored: the generation of the
// organization is taken before the read runs and compared before storing. In Redis the store
// (HSET) and this process's own DEL for the same notification go over one connection in order,
// so an entry computed from old rows and stored before the notification is deleted by it.
import type { Logger } from '../logger.js';
import type { Metrics } from '../observability/metrics.js';
import { ioredis } from '../lazy.js';
import { listen, type Listener } from '../jobs/listener.js';
import { Lru } from './lru.js';

export const CACHE_CHANNEL = 'commerce_cache';

export interface CachedAnswer {
  body: string;
  headers: Array<[string, string]>;
  expiresAt: number;
}

export interface ResponseCache {
  /** The organization's generation now: pass it back to `set`. */
  generation(organizationId: string): number;
  get(organizationId: string, key: string): Promise<{ answer: CachedAnswer; layer: 'memory' | 'redis' } | undefined>;
  set(organizationId: string, key: string, generation: number, answer: Omit<CachedAnswer, 'expiresAt'>): void;
  /** Drops an organization's entries here and in Redis (a change this process made). */
  invalidate(organizationId: string): Promise<void>;
  close(): Promise<void>;
}

export interface ResponseCacheOptions {
  ttlSeconds: number;
  maxEntries: number;
  keyPrefix: string;
  redisUrl?: string;
  /** The URL the invalidation listener connects to (a direct one behind PgBouncer). */
  listenUrl: string;
  logger: Logger;
  metrics: Metrics | null;
  /** Called after each invalidation this process applied (tests measure propagation with it). */
  onInvalidate?: (organizationId: string) => void;
}

/** Answer headers that belong to one response, not to the cached answer. */
const PER_RESPONSE = new Set(['date', 'content-length', 'x-request-id', 'set-cookie', 'etag', 'connection', 'keep-alive', 'transfer-encoding']);

export function cacheableHeaders(headers: Headers): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  headers.forEach((value, name) => {
    if (!PER_RESPONSE.has(name) && !name.startsWith('x-ratelimit') && name !== 'retry-after') out.push([name, value]);
  });
  return out;
}

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const lru = new Lru<CachedAnswer>(options.maxEntries);
  const generations = new Map<string, number>();
  let globalGeneration = 0;
  const ttlMs = options.ttlSeconds * 1000;
  const redis = options.redisUrl ? new (ioredis().Redis)(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : null;
  redis?.on('error', () => undefined); // a Redis outage is a miss, never a failed read
  const hashKey = (organizationId: string) => `${options.keyPrefix}:${organizationId}`;

  function bump(organizationId: string | null): void {
    if (organizationId === null) {
      globalGeneration += 1;
      lru.clear();
    } else {
      generations.set(organizationId, (generations.get(organizationId) ?? 0) + 1);
      lru.deletePrefix(`${organizationId}|`);
    }
  }

  async function dropRedis(organizationId: string): Promise<void> {
    if (redis?.status !== 'ready') return;
    await redis.del(hashKey(organizationId)).catch((error: unknown) => options.logger.warn({ err: error }, 'response cache: Redis invalidation failed'));
  }

  const listener: Listener = listen(
    options.listenUrl,
    [CACHE_CHANNEL],
    (_channel, payload) => {
      // '' = (re)connected: notifications may have been missed meanwhile, so drop this
      // process's entries; Redis entries of that gap are bounded by ttlSeconds.
      const organizationId = payload || null;
      bump(organizationId);
      if (organizationId) void dropRedis(organizationId);
      if (organizationId) options.onInvalidate?.(organizationId);
    },
    options.logger,
    'commerce-cache-listener',
  );

  return {
    generation(organizationId) {
      return globalGeneration * 1_000_000 + (generations.get(organizationId) ?? 0);
    },
    async get(organizationId, key) {
      const now = Date.now();
      const local = lru.get(`${organizationId}|${key}`, now);
      if (local) {
        options.metrics?.responseCache('hit', 'memory');
        return { answer: local, layer: 'memory' };
      }
      if (redis && redis.status === 'ready') {
        const generation = this.generation(organizationId);
        try {
          const raw = await redis.hget(hashKey(organizationId), key);
          const answer = raw ? (JSON.parse(raw) as CachedAnswer) : null;
          // Served (and kept locally) only if no invalidation arrived while Redis answered: the
          // entry may be one the notification is about to delete.
          if (answer && answer.expiresAt > now && this.generation(organizationId) === generation) {
            lru.set(`${organizationId}|${key}`, answer);
            options.metrics?.responseCache('hit', 'redis');
            return { answer, layer: 'redis' };
          }
        } catch (error) {
          options.logger.debug({ err: error }, 'response cache: Redis read failed');
        }
      }
      options.metrics?.responseCache('miss', redis ? 'redis' : 'memory');
      return undefined;
    },
    set(organizationId, key, generation, answer) {
      if (this.generation(organizationId) !== generation) return; // computed across a change
      const entry: CachedAnswer = { ...answer, expiresAt: Date.now() + ttlMs };
      lru.set(`${organizationId}|${key}`, entry);
      if (redis && redis.status === 'ready') {
        redis
          .multi()
          .hset(hashKey(organizationId), key, JSON.stringify(entry))
          .pexpire(hashKey(organizationId), ttlMs)
          .exec()
          .catch((error: unknown) => options.logger.debug({ err: error }, 'response cache: Redis write failed'));
      }
    },
    async invalidate(organizationId) {
      bump(organizationId);
      await dropRedis(organizationId);
    },
    async close() {
      await listener.close();
      redis?.disconnect();
    },
  };
}
