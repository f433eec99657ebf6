// Read-your-writes for replica routing: the time of each caller's last write, in this process,
// and in Redis when REDIS_URL is set (so a write through one API process sends the caller's
// reads through any other process to the primary too). Entries expire with the window.
import type { Redis } from 'ioredis';

export interface WriteLog {
  /** The caller wrote now: its reads go to the primary for the window. */
  wrote(caller: string): void;
  /** Whether the caller wrote within the window. */
  recentlyWrote(caller: string): Promise<boolean>;
}

const MAX_CALLERS = 100_000;

export function createWriteLog(windowMs: number, redis: Redis | null, prefix: string): WriteLog {
  const local = new Map<string, number>();
  return {
    wrote(caller) {
      local.delete(caller);
      local.set(caller, Date.now() + windowMs);
      if (local.size > MAX_CALLERS) {
        const oldest = local.keys().next().value;
        if (oldest !== undefined) local.delete(oldest);
      }
      if (redis?.status === 'ready') redis.set(`${prefix}:${caller}`, '1', 'PX', windowMs).catch(() => undefined);
    },
    async recentlyWrote(caller) {
      const until = local.get(caller);
      if (until !== undefined) {
        if (until > Date.now()) return true;
        local.delete(caller);
      }
      if (redis?.status !== 'ready') return false;
      // Redis unreachable mid-request: the primary is the safe answer.
      return (await redis.exists(`${prefix}:${caller}`).catch(() => 1)) === 1;
    },
  };
}
