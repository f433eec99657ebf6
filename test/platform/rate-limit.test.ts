// Rate limits: headers on every response, 429 with Retry-After past the budget, budgets keyed
// by credential, per-email sign-in limits, and a budget shared through Redis.
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

const budgets = {
  authenticated: { points: 5, durationSeconds: 60 },
  anonymous: { points: 3, durationSeconds: 60 },
  signIn: { points: 2, durationSeconds: 300 },
};

describe('in-memory rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rateLimit: budgets });
  });
  afterAll(() => t?.close());

  it('counts down X-RateLimit-Remaining and answers 429 with Retry-After past the limit', async () => {
    const key = await t.apiKey('admin');
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.request('/api/settings', { apiKey: key });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      seen.push(Number(res.headers.get('x-ratelimit-remaining')));
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
      expect(res.headers.get('retry-after')).toBeNull();
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    const refused = await t.request('/api/settings', { apiKey: key });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-request-id')).toBeTruthy();
  });

  it('gives each credential its own budget', async () => {
    const other = await t.apiKey('admin');
    expect((await t.request('/api/settings', { apiKey: other })).status).toBe(200);
  });

  it('limits sign-in attempts per email, whatever the address', async () => {
    const email = `victim-${randomBytes(3).toString('hex')}@example.com`;
    const attempt = () => t.request('/api/auth/sign-in/email', { body: { email, password: 'guess-guess-guess' } });
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(401);
    const third = await attempt();
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBeTruthy();
  });
});

function redisReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(6379, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('rate limits shared through Redis', async () => {
  const available = await redisReachable();
  it.runIf(available)('two server instances draw from one budget', async () => {
    const prefix = randomBytes(4).toString('hex');
    const shared = { ...budgets, keyPrefix: `test-${prefix}`, anonymous: { points: 4, durationSeconds: 60 } };
    const a = await startTestApp({ redisUrl: 'redis://127.0.0.1:6379', rateLimit: shared });
    const b = await startTestApp({ redisUrl: 'redis://127.0.0.1:6379', rateLimit: shared });
    try {
      // Both instances see requests from 127.0.0.1; a key prefix of its own keeps this run apart.
      const statuses = [];
      for (const app of [a, b, a, b, a]) statuses.push((await app.request('/api/health')).status);
      expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
      expect(statuses[4]).toBe(429);
    } finally {
      await a.close();
      await b.close();
      const { Redis } = await import('ioredis');
      const redis = new Redis('redis://127.0.0.1:6379');
      const keys = await redis.keys(`test-${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });
});
