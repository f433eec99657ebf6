// JSON logs (pino). Each request gets a child logger carrying its request id, reachable from
// anywhere in the request's async call tree through `requestScope` (for code that has no ctx,
// such as Yoga's error masking).
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'commerce' }, timestamp: pino.stdTimeFunctions.isoTime });
}

export interface RequestScope {
  requestId: string;
  logger: Logger;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

/**
 * Whether an error only says the client went away (an aborted fetch, a closed socket): such a
 * request is logged at debug with its request id, never as a server error.
 */
export function isClientAbort(error: unknown): boolean {
  for (let e = error as { name?: string; code?: string | number; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.name === 'AbortError' || e.code === 'ABORT_ERR' || e.code === 20 || e.code === 'ECONNRESET' || e.code === 'ERR_STREAM_PREMATURE_CLOSE') return true;
  }
  return false;
}
