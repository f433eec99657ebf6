// Payload types of the events the orders module emits (see events/registry.ts).
import type { FulfillmentPayload, OrderPayload } from './views.js';

export interface OrderStatusChangePayload {
  order: OrderPayload;
  from: string;
  to: string;
  /** patch, payment, fulfillment or pickup. */
  trigger: string;
  reason: string | null;
}

declare module '../../events/registry.js' {
  interface EventPayloads {
    'orders.create': { order: OrderPayload };
    'orders.statusChange': OrderStatusChangePayload;
    'fulfillment.create': { fulfillment: FulfillmentPayload };
  }
}
