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
