// The order state table, as data. Every move of an order's status goes through `findTransition`
// with its trigger; anything not listed is 422 INVALID_TRANSITION. Rows follow the spec's table:
//
//   from                                              trigger      to                   effects
//   pending                                           patch        confirmed
//   confirmed                                         patch        processing
//   processing                                        patch        partially_fulfilled
//   processing                                        patch        fulfilled            fulfill what is left
//   fulfilled                                         patch        refunded
//   pending, confirmed, processing, part._fulfilled   patch        cancelled            release stock and promotion uses, void payment
//   pending (awaiting payment)                        payment      confirmed            mark paid
//   processing, partially_fulfilled                   fulfillment  partially_fulfilled / fulfilled (derived from lines)
//   processing (pickup order)                         pickup       ready_for_pickup
//   ready_for_pickup (pickup order)                   pickup       picked_up            fulfill what is left
//   picked_up                                         patch        refunded
//   ready_for_pickup                                  patch        cancelled            as the other cancellations
//
// Pickup orders (issue 25: the shipping line is a pickup method) are collected, not shipped: the
// rows that ship (PATCH to partially_fulfilled / fulfilled, fulfillments) hold for delivery orders
// only, the `pickup` rows for pickup orders only; the other kind's move is 422 INVALID_TRANSITION.
//
// Every move records a status change (the timeline) and emits orders.statusChange. The spec
// does not name the cancelled state; it is `cancelled` here, and PATCH takes `status: "cancelled"`.
import type { OrderStatus } from '../../generated/prisma/client.js';

export const ORDER_STATUSES = [
  'pending',
  'confirmed',
  'processing',
  'partially_fulfilled',
  'fulfilled',
  'ready_for_pickup',
  'picked_up',
  'refunded',
  'cancelled',
] as const satisfies readonly OrderStatus[];

export type Trigger = 'patch' | 'payment' | 'fulfillment' | 'pickup';

export type Effect =
  /** Give back the stock still reserved for unfulfilled units. */
  | 'releaseStock'
  /** Give the promotion uses of the order back. */
  | 'releasePromotions'
  /** Cancel a payment that has not been collected. */
  | 'voidPayment'
  /** The provider confirmed the charge: payment status paid, captured amount recorded. */
  | 'markPaid'
  /** Record a fulfillment of every unit not yet fulfilled (PATCH to fulfilled). */
  | 'fulfillRemaining';

export interface Transition {
  from: readonly OrderStatus[];
  trigger: Trigger;
  to: OrderStatus;
  /** Extra condition on the order, checked with the row locked. */
  when?: 'awaitingPayment' | 'pickupOrder' | 'deliveryOrder';
  effects: readonly Effect[];
}

export const ORDER_TRANSITIONS: readonly Transition[] = [
  { from: ['pending'], trigger: 'patch', to: 'confirmed', effects: [] },
  { from: ['confirmed'], trigger: 'patch', to: 'processing', effects: [] },
  { from: ['processing'], trigger: 'patch', to: 'partially_fulfilled', when: 'deliveryOrder', effects: [] },
  { from: ['processing'], trigger: 'patch', to: 'fulfilled', when: 'deliveryOrder', effects: ['fulfillRemaining'] },
  { from: ['fulfilled', 'picked_up'], trigger: 'patch', to: 'refunded', effects: [] },
  {
    from: ['pending', 'confirmed', 'processing', 'partially_fulfilled', 'ready_for_pickup'],
    trigger: 'patch',
    to: 'cancelled',
    effects: ['releaseStock', 'releasePromotions', 'voidPayment'],
  },
  { from: ['pending'], trigger: 'payment', to: 'confirmed', when: 'awaitingPayment', effects: ['markPaid'] },
  { from: ['processing', 'partially_fulfilled'], trigger: 'fulfillment', to: 'partially_fulfilled', when: 'deliveryOrder', effects: [] },
  { from: ['processing', 'partially_fulfilled'], trigger: 'fulfillment', to: 'fulfilled', when: 'deliveryOrder', effects: [] },
  { from: ['processing'], trigger: 'pickup', to: 'ready_for_pickup', when: 'pickupOrder', effects: [] },
  { from: ['ready_for_pickup'], trigger: 'pickup', to: 'picked_up', when: 'pickupOrder', effects: ['fulfillRemaining'] },
];

export function findTransition(from: OrderStatus, trigger: Trigger, to: OrderStatus): Transition | null {
  return ORDER_TRANSITIONS.find((t) => t.trigger === trigger && t.to === to && t.from.includes(from)) ?? null;
}

/** The statuses the pickup routes may move an order in `from` to (for error messages). */
export function pickupTargets(from: OrderStatus): OrderStatus[] {
  return ORDER_TRANSITIONS.filter((t) => t.trigger === 'pickup' && t.from.includes(from)).map((t) => t.to);
}

/** The statuses a PATCH may move an order in `from` to (for error messages). */
export function patchTargets(from: OrderStatus): OrderStatus[] {
  return ORDER_TRANSITIONS.filter((t) => t.trigger === 'patch' && t.from.includes(from)).map((t) => t.to);
}

/** An order's payment state (derived from its payments); the PaymentStatus enum's values. */
export const PAYMENT_STATUSES = ['awaiting_payment', 'authorized', 'partially_paid', 'paid', 'partially_refunded', 'refunded', 'voided'] as const;
export type PaymentStatusValue = (typeof PAYMENT_STATUSES)[number];
