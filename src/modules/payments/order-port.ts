// The payments side of orders' OrderPaymentPort (orders/payment-port.ts), wired in app.ts.
import type { OrderPaymentPort } from '../orders/payment-port.js';
import { refundExchangeCreditOnCancel, settleIfImmediate } from '../orders/refunds.js';
import { voidOnCancel } from './capture.js';
import { captureOnFulfilment } from './tasks.js';

export const orderPaymentPort: OrderPaymentPort = {
  // A cancellation gives gift cards and store credit back, and a replacement order's exchange
  // credit through a refund to the original order's payment (issue 27; orders/refunds.ts).
  voidOnCancel: async (tx, ctx, order) => {
    const voided = await voidOnCancel(tx, ctx, order, { returnTenders: true });
    if (!voided) return null;
    const credit = await refundExchangeCreditOnCancel(tx, ctx, order);
    if (credit) {
      // With an undo window of 0 it is paid out right after the cancel commits; the settle job
      // written with it is the safety net (and the only way when the window is longer).
      voided.afterCommit.push(() =>
        settleIfImmediate(ctx, credit.id).catch((error: unknown) =>
          ctx.logger.warn({ err: error, refundId: credit.id }, 'exchange credit refund settlement failed; the orders/settle-refund job retries it'),
        ),
      );
    }
    return voided;
  },
  captureOnFulfilment,
};
