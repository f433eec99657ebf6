// JSON logs (pino). Each request gets a child logger carrying its request id, passed along in
// the request's context (ctx.logger, ctx.requestId). Deliberately not an AsyncLocalStorage:
// on Node 20 its promise hooks cost 11–15% of a request's CPU (graphql/error-masking.ts).
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'commerce' }, timestamp: pino.stdTimeFunctions.isoTime });
}

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
