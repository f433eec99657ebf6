// The payments side of orders' OrderPaymentPort (orders/payment-port.ts), wired in app.ts.
import type { OrderPaymentPort } from '../orders/payment-port.js';
import { voidOnCancel } from './capture.js';
import { captureOnFulfilment } from './tasks.js';

export const orderPaymentPort: OrderPaymentPort = { voidOnCancel, captureOnFulfilment };
