// The wait before the next attempt (spec, Limits → Job backoff): fixed waits `delay` every time;
// exponential waits delay·2^(n−1) after attempt n, so delay 5000 gives 5 s, 10 s, 20 s.
import type { Backoff } from './tasks.js';

/** Longest wait the runner schedules: beyond it a retry is pointless and the arithmetic overflows. */
export const MAX_BACKOFF_MS = 7 * 24 * 60 * 60 * 1000;

/** Milliseconds to wait after `attemptsMade` attempts (≥ 1) before the next one. */
export function backoffDelayMs(backoff: Backoff | undefined, attemptsMade: number): number {
  if (!backoff || backoff.delay <= 0) return 0;
  const n = Math.max(1, Math.floor(attemptsMade));
  const delay = backoff.type === 'fixed' ? backoff.delay : backoff.delay * 2 ** (n - 1);
  return Math.min(delay, MAX_BACKOFF_MS);
}
