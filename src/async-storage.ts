// AsyncLocalStorage that costs nothing between the calls that need it.
//
// Node 20 implements AsyncLocalStorage with async_hooks: from the first run() of any storage on,
// an init hook runs for every promise the process creates (and for every other async resource),
// until every storage that ran has been disabled again. Each of ours is read only inside a few
// calls (a sampled request's SQL statement count, a transaction's connection, better-auth's
// calls), yet one run at boot (seeding, minting a key) left the hooks on for good: they were a
// fifth of the CPU of a cached catalog read and 8–9% of a hot single read (bench/profile.ts
// cached, settings). Here a storage is run only around the call that needs it and disabled
// (AsyncLocalStorage#disable, Node's own way back to no hooks) when the last such call in flight
// has settled; the next run enables it again.
//
// A store is therefore visible only while its call is in flight: work a call leaves behind (a
// timer, a background promise) that reads the store after the call settled reads `undefined`,
// exactly as code outside any run does.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Counts calls in flight and calls `idle` each time the count returns to zero. */
class CallsInFlight {
  private count = 0;

  constructor(private readonly idle: () => void) {}

  async around<R>(fn: () => Promise<R>): Promise<R> {
    this.count += 1;
    try {
      return await fn();
    } finally {
      this.count -= 1;
      if (this.count === 0) this.idle();
    }
  }

  get inFlight(): number {
    return this.count;
  }
}

/** An AsyncLocalStorage enabled only while a run() of it is in flight. */
export class ScopedStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private readonly calls = new CallsInFlight(() => this.storage.disable());

  run<R>(store: T, fn: () => Promise<R>): Promise<R> {
    return this.calls.around(() => this.storage.run(store, fn));
  }

  /** The store of the run this code is inside of, or undefined (also when no run is in flight). */
  getStore(): T | undefined {
    return this.storage.getStore();
  }

  /** Runs in flight now (test/platform/async-storage.test.ts reads it). */
  get inFlight(): number {
    return this.calls.inFlight;
  }
}

/**
 * Storages a library runs inside the calls we make into it (better-auth's request, endpoint and
 * adapter contexts): `around` wraps each such call, and when none is in flight the storages
 * `storages()` lists are disabled. The library's own next run() enables them again.
 */
export function libraryStorages(storages: () => Iterable<Pick<AsyncLocalStorage<unknown>, 'disable'>>): <R>(fn: () => Promise<R>) => Promise<R> {
  const calls = new CallsInFlight(() => {
    for (const storage of storages()) storage.disable();
  });
  return (fn) => calls.around(fn);
}
