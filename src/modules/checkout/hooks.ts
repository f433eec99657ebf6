// Payloads of the checkout hooks (events/hooks.ts). `checkout.beforeCreate` runs inside the
// checkout transaction after pricing and before stock is reserved: a handler that throws vetoes
// the checkout (422 CHECKOUT_FAILED with its message). `orders.afterCreate` runs after commit;
// its failures do not undo the order and are reported in the response's meta.hookErrors.
import type { OrderView } from '../orders/views.js';

export interface CheckoutHookLine {
  entityId: string;
  variantId: string | null;
  entityType: string;
  sku: string;
  title: string;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
  discountTotal: number;
  taxTotal: number;
}

export interface CheckoutBeforeCreatePayload {
  cart: { id: string; currency: string; customerId: string | null };
  customerId: string | null;
  lines: CheckoutHookLine[];
  totals: { subtotal: number; discountTotal: number; taxTotal: number; shippingTotal: number; grandTotal: number };
  promotionCodes: string[];
  shippingAddress: Record<string, unknown>;
}

/**
 * `checkout.beforeCommit`: the order and its lines are written, the transaction is still open
 * (`ctx.tx`). Plugins write rows that must exist exactly when the order does; a handler that
 * throws rolls the checkout back (an AppError becomes 422 CHECKOUT_FAILED).
 */
export interface CheckoutBeforeCommitPayload {
  orderId: string;
  customerId: string | null;
  currency: string;
  lines: Array<{
    id: string;
    position: number;
    entityId: string;
    variantId: string | null;
    sku: string;
    title: string;
    quantity: number;
    unitPrice: number;
    totalPrice: number;
    discountTotal: number;
    taxTotal: number;
  }>;
}

declare module '../../events/hooks.js' {
  interface HookPayloads {
    'checkout.beforeCreate': CheckoutBeforeCreatePayload;
    'checkout.beforeCommit': CheckoutBeforeCommitPayload;
    'orders.afterCreate': { order: OrderView };
  }
}

export {};
