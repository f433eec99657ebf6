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
  it('counts each route’s first request, then the configured share of the rest, evenly', () => {
    const half = statementSampler(0.5);
    expect(Array.from({ length: 7 }, () => half('GET /api/orders/:id'))).toEqual([true, false, true, false, true, false, true]);
    expect(half('GET /api/customers/:id')).toBe(true);

    const hundredth = statementSampler(0.01);
    const picks = Array.from({ length: 1001 }, () => hundredth('GET /api/settings/:group'));
    expect(picks.filter(Boolean)).toHaveLength(11); // the first, then one in each hundred after it
    expect(picks.slice(1, 100).some(Boolean)).toBe(false);
    expect(picks[100]).toBe(true);

    const every = statementSampler(1);
    expect(Array.from({ length: 5 }, () => every('GET /x'))).toEqual([true, true, true, true, true]);
    const never = statementSampler(0);
    expect([never('GET /x'), never('GET /x')]).toEqual([false, false]);
  });
});
