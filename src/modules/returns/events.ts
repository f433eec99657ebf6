// Payload types of the events returns emit (names listed in events/registry.ts): every one
// carries the return as it is after the move.
import type { ReturnPayload } from './views.js';

export const RETURN_EVENTS = {
  requested: 'return.created',
  approved: 'return.approved',
  rejected: 'return.rejected',
  received: 'return.received',
  refunded: 'return.refunded',
  closed: 'return.closed',
  cancelled: 'return.cancelled',
  exchanged: 'return.exchanged',
} as const;

declare module '../../events/registry.js' {
  interface EventPayloads {
    'return.created': { return: ReturnPayload };
    'return.approved': { return: ReturnPayload };
    'return.rejected': { return: ReturnPayload };
    'return.received': { return: ReturnPayload };
    'return.refunded': { return: ReturnPayload };
    'return.closed': { return: ReturnPayload };
    'return.cancelled': { return: ReturnPayload };
    'return.exchanged': { return: ReturnPayload };
  }
}
