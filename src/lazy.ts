// Heavy libraries that only some requests need (Stripe's SDK, pdfkit, nodemailer, the GraphiQL
// bundle) are loaded on first use instead of at boot: together they cost about 2 s of start-up
// and 100 MB of RSS on this machine, for code most processes never run. CommonJS `require`
// keeps the call sites synchronous.
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

const require = createRequire(import.meta.url);

export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

/** ioredis, loaded only in processes with REDIS_URL set (the rate limiters share it). */
export const ioredis = lazyModule<{ Redis: typeof Redis }>('ioredis');
