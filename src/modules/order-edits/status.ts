// The order-edit state table, as data. An edit is created pending (with its preview); only a
// pending edit moves. Every other move is 409 CONFLICT (details.reason INVALID_TRANSITION).
//
//   from      trigger   to          effects
//   pending   confirm   confirmed   lines, totals, reservations, promotion uses and the payment
//                                   difference applied to the order in one transaction
//   pending   cancel    cancelled   none (the order is untouched)
//
// Which orders may be edited (checked with the order row locked, else 409):
//   status pending, confirmed or processing, no unit fulfilled and no line refunded.
// A confirm whose order changed since the preview (its fingerprint), or whose recomputed totals
// differ from the preview (a price or promotion changed meanwhile), is 409 EDIT_STALE in
// details.reason: preview again.
import type { OrderStatus } from '../../generated/prisma/client.js';

export const EDIT_STATUSES = ['pending', 'confirmed', 'cancelled'] as const;
export type EditStatus = (typeof EDIT_STATUSES)[number];
export type EditTrigger = 'confirm' | 'cancel';

export const EDIT_TRANSITIONS: ReadonlyArray<{ from: EditStatus; trigger: EditTrigger; to: EditStatus }> = [
  { from: 'pending', trigger: 'confirm', to: 'confirmed' },
  { from: 'pending', trigger: 'cancel', to: 'cancelled' },
];

export function editTransition(from: string, trigger: EditTrigger): EditStatus | null {
  return EDIT_TRANSITIONS.find((t) => t.from === from && t.trigger === trigger)?.to ?? null;
}

/** Order statuses an edit may be made in: before any fulfilment or pickup preparation. */
export const EDITABLE_ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'confirmed', 'processing'];

/** What confirming did with the payment (see service.ts settlePayment). */
export const PAYMENT_ACTIONS = ['none', 'refund', 'awaiting_difference', 'reissued_intent', 'authorization_covers'] as const;

export const PAYMENT_ACTION_DESCRIPTIONS: Record<PaymentAction, string> = {
  none: 'The total did not change what is owed',
  refund: 'The difference was refunded through the refund rules (refundId)',
  awaiting_difference: 'The order is partially_paid until the difference is paid',
  reissued_intent:
    "The order's open provider payment was voided and what is still owed (the new total less what gift cards, store credit and captures already paid) authorized through the provider (a new payment record; paymentIntentId is its reference)",
  authorization_covers:
    "The order's authorized payment (manual or on-fulfilment capture) covers the new total: the capture takes the new total, the rest of the authorization is released",
};
export type PaymentAction = (typeof PAYMENT_ACTIONS)[number];
