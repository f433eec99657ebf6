// The return (RMA) state table, as data. Every move goes through `findReturnTransition`; a move
// not listed is 422 INVALID_TRANSITION naming the moves allowed from the current status.
//
//   from                 action    to          effects
//   requested            approve   approved
//   requested            reject    rejected    its units can be asked for again
//   requested, approved  cancel    cancelled   its units can be asked for again
//   approved             receive   received    per line: restock into a warehouse, or damaged (no stock move)
//   received             refund    refunded    a refund of the returned lines through the refund service
//   received             close     closed      no money moves (e.g. the goods came back unusable by the shopper's fault)
//
// An exchange (a return with exchangeLines, exchange.ts) moves through the same table except:
//   received             exchange  exchanged   the replacement order made, the difference charged or refunded
//   received             refund    —           not an exchange's move (422): it settles with exchange, or closes
// and reject, cancel and close also release the outbound lines' reservation. A plain return
// cannot be exchanged (422).
//
// rejected, refunded, closed, cancelled and exchanged are final. Every move emits return.<to>
// (return.created for the creation) and is audited.
import type { ReturnReason, ReturnStatus } from '../../generated/prisma/client.js';

export const RETURN_STATUSES = ['requested', 'approved', 'rejected', 'received', 'refunded', 'closed', 'cancelled', 'exchanged'] as const satisfies readonly ReturnStatus[];
export const RETURN_REASONS = ['damaged', 'defective', 'wrong_item', 'not_as_described', 'no_longer_needed', 'size_or_fit', 'other'] as const satisfies readonly ReturnReason[];
export const RETURN_ACTIONS = ['approve', 'reject', 'cancel', 'receive', 'refund', 'close', 'exchange'] as const;
export type ReturnAction = (typeof RETURN_ACTIONS)[number];

/** Returns in these statuses no longer hold their units: they may be asked for again. */
export const RELEASED_STATUSES: readonly ReturnStatus[] = ['rejected', 'cancelled'];

/** A plain return, or an exchange (a return with an outbound side). */
export type ReturnKind = 'return' | 'exchange';

export interface ReturnTransition {
  from: readonly ReturnStatus[];
  action: ReturnAction;
  to: ReturnStatus;
  /** Only for this kind; both when absent. */
  only?: ReturnKind;
}

export const RETURN_TRANSITIONS: readonly ReturnTransition[] = [
  { from: ['requested'], action: 'approve', to: 'approved' },
  { from: ['requested'], action: 'reject', to: 'rejected' },
  { from: ['requested', 'approved'], action: 'cancel', to: 'cancelled' },
  { from: ['approved'], action: 'receive', to: 'received' },
  { from: ['received'], action: 'refund', to: 'refunded', only: 'return' },
  { from: ['received'], action: 'close', to: 'closed' },
  { from: ['received'], action: 'exchange', to: 'exchanged', only: 'exchange' },
];

const applies = (t: ReturnTransition, kind: ReturnKind) => !t.only || t.only === kind;

export function findReturnTransition(from: ReturnStatus, action: ReturnAction, kind: ReturnKind = 'return'): ReturnTransition | null {
  return RETURN_TRANSITIONS.find((t) => t.action === action && t.from.includes(from) && applies(t, kind)) ?? null;
}

/** The actions allowed from a status (for the 422's message and details). */
export function allowedActions(from: ReturnStatus, kind: ReturnKind = 'return'): ReturnAction[] {
  return RETURN_TRANSITIONS.filter((t) => t.from.includes(from) && applies(t, kind)).map((t) => t.action);
}

/** The column stamped when a return enters a status. */
export const STAMP: Partial<Record<ReturnStatus, 'approvedAt' | 'rejectedAt' | 'receivedAt' | 'refundedAt' | 'closedAt' | 'cancelledAt' | 'exchangedAt'>> = {
  approved: 'approvedAt',
  rejected: 'rejectedAt',
  received: 'receivedAt',
  refunded: 'refundedAt',
  closed: 'closedAt',
  cancelled: 'cancelledAt',
  exchanged: 'exchangedAt',
};

/** Moves that give an exchange's outbound reservation back. */
export const RELEASING_ACTIONS: readonly ReturnAction[] = ['reject', 'cancel', 'close'];
