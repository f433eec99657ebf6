// The payments side of orders' OrderPaymentPort (orders/payment-port.ts), wired in app.ts.
import type { OrderPaymentPort } from '../orders/payment-port.js';
import { voidOnCancel } from './capture.js';
import { captureOnFulfilment } from './tasks.js';

export const orderPaymentPort: OrderPaymentPort = {
  // A cancellation gives gift cards and store credit back (issue 27).
  voidOnCancel: (tx, ctx, order) => voidOnCancel(tx, ctx, order, { returnTenders: true }),
  captureOnFulfilment,
};
