// src/async-storage.ts: storages enabled only while a call that needs them is in flight (Node 20's
// promise hooks run for every promise of the process while any storage is enabled), and the
// sampler that decides which requests count their SQL statements.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { libraryStorages, ScopedStorage } from '../../src/async-storage.js';
import { statementSampler } from '../../src/observability/request-observer.js';

describe('ScopedStorage', () => {
  it('shows a run its own store across awaits, and nothing outside a run', async () => {
    const storage = new ScopedStorage<{ id: number }>();
    expect(storage.getStore()).toBeUndefined();
    const seen = await storage.run({ id: 1 }, async () => {
      await sleep(1);
      const first = storage.getStore()?.id;
      await Promise.resolve();
      return [first, storage.getStore()?.id];
    });
    expect(seen).toEqual([1, 1]);
    expect(storage.getStore()).toBeUndefined();
    expect(storage.inFlight).toBe(0);
  });

  it('keeps a run’s store while another run that overlapped it settles first', async () => {
    const storage = new ScopedStorage<{ id: string }>();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const long = storage.run({ id: 'long' }, async () => {
      await gate;
      await sleep(1);
      return storage.getStore()?.id;
    });
    const short = await storage.run({ id: 'short' }, async () => {
      await sleep(1);
      return storage.getStore()?.id;
    });
    expect(short).toBe('short');
    expect(storage.inFlight).toBe(1);
    release();
    // Had the short run's end disabled the storage, the long one would read undefined here.
    expect(await long).toBe('long');
    expect(storage.inFlight).toBe(0);
  });

  it('settles its count when the run throws', async () => {
    const storage = new ScopedStorage<number>();
    await expect(
      storage.run(1, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(storage.inFlight).toBe(0);
    expect(await storage.run(2, async () => storage.getStore())).toBe(2);
  });
});

describe('libraryStorages', () => {
  it('disables the library’s storages once no call into it is in flight, failed calls included', async () => {
    let disabled = 0;
    const around = libraryStorages(() => [{ disable: () => void (disabled += 1) }]);
    let release!: () => void;
    const first = around(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    await expect(around(async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(disabled).toBe(0); // the first call is still in flight
    release();
    await first;
    expect(disabled).toBe(1);
    await around(async () => 'again');
    expect(disabled).toBe(2);
  });
});

describe('statementSampler', () => {
  /** A sampler on a clock the test moves; each counted request ends at once (after `lasts` ms). */
  function sampled(rate: number, maxShare?: number) {
    let clock = 0;
    const sampler = statementSampler(rate, { maxShare, now: () => clock });
    return {
      ask(route: string, lasts = 0): boolean {
        const taken = sampler.take(route);
        if (taken) {
          clock += lasts;
          sampler.done();
        }
        return taken;
      },
      wait(ms: number) {
        clock += ms;
      },
      sampler,
    };
  }

  it('counts each route’s first request, then the configured share of the rest, evenly', () => {
    const half = sampled(0.5);
    expect(Array.from({ length: 7 }, () => half.ask('GET /api/orders/:id'))).toEqual([true, false, true, false, true, false, true]);
    expect(half.ask('GET /api/customers/:id')).toBe(true);

    const hundredth = sampled(0.01);
    const picks = Array.from({ length: 1001 }, () => hundredth.ask('GET /api/settings/:group'));
    expect(picks.filter(Boolean)).toHaveLength(11); // the first, then one in each hundred after it
    expect(picks.slice(1, 100).some(Boolean)).toBe(false);
    expect(picks[100]).toBe(true);

    const every = sampled(1);
    expect(Array.from({ length: 5 }, () => every.ask('GET /x', 50))).toEqual([true, true, true, true, true]);
    const never = sampled(0);
    expect([never.ask('GET /x'), never.ask('GET /x')]).toEqual([false, false]);
  });

  it('keeps counted requests in flight at most the given share of the time, and a due turn waits for its time', () => {
    const s = sampled(0.5, 0.05);
    expect(s.ask('GET /api/catalog/entities', 100)).toBe(true); // the route's first: 100 ms in flight
    // Counting rests 19 × 100 ms: due requests in that time are not counted…
    expect(s.ask('GET /api/catalog/entities')).toBe(false);
    expect(s.ask('GET /api/catalog/entities')).toBe(false);
    s.wait(1_899);
    expect(s.ask('GET /api/catalog/entities')).toBe(false);
    // …except another route's first request.
    expect(s.ask('GET /api/settings/:group')).toBe(true); // ends at 1,999 ms: the rest still ends at 2,000
    expect(s.ask('GET /api/catalog/entities')).toBe(false);
    s.wait(1);
    // The turn kept while resting is taken by the next request after it.
    expect(s.ask('GET /api/catalog/entities', 10)).toBe(true);
    expect(s.ask('GET /api/catalog/entities')).toBe(false); // not due (0.5: every other one)
    expect(s.ask('GET /api/catalog/entities')).toBe(false); // due, but resting 190 ms
    s.wait(190);
    expect(s.ask('GET /api/catalog/entities')).toBe(true);
  });

  it('lets counted requests overlap, and rests in proportion to the whole time any was in flight', () => {
    let clock = 0;
    const sampler = statementSampler(1 / 3, { maxShare: 0.5, now: () => clock });
    expect(sampler.take('GET /a')).toBe(true);
    clock += 10;
    expect(sampler.take('GET /b')).toBe(true); // first of its route, while /a is in flight
    clock += 30;
    sampler.done();
    clock += 20;
    sampler.done(); // in flight from 0 to 60 ms: counting rests until 120 ms
    expect([sampler.take('GET /a'), sampler.take('GET /a'), sampler.take('GET /a')]).toEqual([false, false, false]);
    clock = 120;
    expect(sampler.take('GET /a')).toBe(true);
    sampler.done();
  });
});
