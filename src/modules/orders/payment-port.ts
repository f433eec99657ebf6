// What an order's status moves need from the payments module: void what a cancelled order never
// collected, and capture on fulfilment (capture mode on_fulfilment). Orders owns this port and
// reaches it through ctx.services.orderPayments; the payments module implements it
// (payments/order-port.ts) and app.ts wires it in. So orders never imports payments here, and
// the import graph keeps no cycle orders → payments → orders (payments reads orders freely).
import type { Tx } from '../../db/client.js';
import type { PaymentStatus } from '../../generated/prisma/client.js';
import type { OrdersCtx } from './shared.js';

/** What voidOnCancel reads of the cancelling order. */
export interface CancellingOrder {
  id: string;
  grandTotal: bigint;
  paymentStatus: PaymentStatus;
  capturedAmount: bigint;
  currency: string;
  customerId: string | null;
}

export interface OrderPaymentPort {
  /**
   * Voids the payments of a cancelling order that collected nothing, gives its gift-card and
   * store-credit payments back to their card and account, and a replacement order's exchange
   * credit back through a refund to the original order's payment; null when it has no payment records.
   */
  voidOnCancel(tx: Tx, ctx: OrdersCtx, order: CancellingOrder): Promise<{ afterCommit: Array<() => Promise<void>>; paymentStatus: PaymentStatus } | null>;
  /** Schedules the capture of the remaining authorization when the store captures on fulfilment. */
  captureOnFulfilment(tx: Tx, ctx: Pick<OrdersCtx, 'services' | 'organization'>, orderId: string): Promise<void>;
}

declare module '../../services.js' {
  interface Services {
    orderPayments: OrderPaymentPort;
  }
}
