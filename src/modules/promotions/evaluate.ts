// What a promotion would give a cart, or why it gives nothing: a pure function, so validate (a
// read) and redeem (the write, under a row lock) decide identically. Checks in order; the first
// failing one is the reason:
//   INACTIVE, NOT_STARTED, EXPIRED, USAGE_LIMIT_REACHED, CURRENCY_MISMATCH,
//   CUSTOMER_GROUP_NOT_ELIGIBLE, CUSTOMER_REQUIRED (a per-customer limit and no customerId),
//   CUSTOMER_LIMIT_REACHED, MIN_SUBTOTAL_NOT_MET, NO_ELIGIBLE_ITEMS (item types: no line
//   qualifies, or buy_x_get_y has no full block).
// NOT_FOUND (no such code) is decided by the caller.
import type { Promotion } from '../../generated/prisma/client.js';
import { discounted, percentOf } from '../pricing/rounding.js';

export type RejectionReason =
  | 'NOT_FOUND'
  | 'INACTIVE'
  | 'NOT_STARTED'
  | 'EXPIRED'
  | 'USAGE_LIMIT_REACHED'
  | 'CURRENCY_MISMATCH'
  | 'CUSTOMER_GROUP_NOT_ELIGIBLE'
  | 'CUSTOMER_REQUIRED'
  | 'CUSTOMER_LIMIT_REACHED'
  | 'MIN_SUBTOTAL_NOT_MET'
  | 'NO_ELIGIBLE_ITEMS';

export interface CartLine {
  entityId: string;
  entityType: string;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
}

export interface CartInput {
  currency: string;
  subtotal: number;
  lineItems: CartLine[];
  customerId?: string | null;
  customerGroupIds?: string[] | null;
}

export interface LineDiscount {
  index: number;
  entityId: string;
  discount: bigint;
}

export interface Evaluation {
  valid: boolean;
  reason: RejectionReason | null;
  message: string;
  discount: bigint;
  freeShipping: boolean;
  lines: LineDiscount[];
}

function rejected(reason: RejectionReason, message: string): Evaluation {
  return { valid: false, reason, message, discount: 0n, freeShipping: false, lines: [] };
}

function eligible(promotion: Promotion, line: CartLine): boolean {
  if (!promotion.entityIds.length && !promotion.entityTypes.length) return true;
  return promotion.entityIds.includes(line.entityId.toLowerCase()) || promotion.entityTypes.includes(line.entityType);
}

/** Positions p in [0, k) with p mod (buy + get) ≥ buy: the discounted ranks among the first k units. */
function discountedRanks(k: number, buy: number, get: number): number {
  const block = buy + get;
  return Math.floor(k / block) * get + Math.max(0, (k % block) - buy);
}

function buyXGetY(promotion: Promotion, lines: CartLine[]): LineDiscount[] {
  const buy = promotion.buyQuantity ?? 1;
  const get = promotion.getQuantity ?? 1;
  const ranked = lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => eligible(promotion, line))
    .sort((a, b) => b.line.unitPrice - a.line.unitPrice || a.index - b.index);
  const out: LineDiscount[] = [];
  let start = 0;
  for (const { line, index } of ranked) {
    const free = discountedRanks(start + line.quantity, buy, get) - discountedRanks(start, buy, get);
    start += line.quantity;
    if (free > 0) out.push({ index, entityId: line.entityId, discount: percentOf(BigInt(line.unitPrice), promotion.value) * BigInt(free) });
  }
  return out;
}

export function evaluatePromotion(promotion: Promotion, cart: CartInput, now: Date, customerUses: number): Evaluation {
  if (!promotion.isActive) return rejected('INACTIVE', 'the promotion has been deactivated');
  if (now < promotion.validFrom) return rejected('NOT_STARTED', `the promotion starts at ${promotion.validFrom.toISOString()}`);
  if (promotion.validUntil && now >= promotion.validUntil) return rejected('EXPIRED', `the promotion ended at ${promotion.validUntil.toISOString()}`);
  if (promotion.usageLimit !== null && promotion.timesUsed >= promotion.usageLimit) return rejected('USAGE_LIMIT_REACHED', 'the promotion has been used up');
  if (promotion.currency && promotion.currency !== cart.currency) return rejected('CURRENCY_MISMATCH', `the promotion applies to ${promotion.currency} orders only`);
  if (promotion.customerGroupIds.length && !(cart.customerGroupIds ?? []).some((g) => promotion.customerGroupIds.includes(g))) {
    return rejected('CUSTOMER_GROUP_NOT_ELIGIBLE', 'the promotion is reserved for other customer groups');
  }
  if (promotion.usageLimitPerCustomer !== null) {
    if (!cart.customerId) return rejected('CUSTOMER_REQUIRED', 'the promotion is limited per customer: a customerId is needed');
    if (customerUses >= promotion.usageLimitPerCustomer) return rejected('CUSTOMER_LIMIT_REACHED', 'the customer has already used this promotion as often as allowed');
  }
  const subtotal = BigInt(cart.subtotal);
  if (promotion.minSubtotal !== null && subtotal < promotion.minSubtotal) {
    return rejected('MIN_SUBTOTAL_NOT_MET', `the subtotal must be at least ${promotion.minSubtotal} ${promotion.currency ?? ''}`.trim());
  }

  const ok = (discount: bigint, lines: LineDiscount[], freeShipping = false): Evaluation => ({
    valid: true,
    reason: null,
    message: 'the promotion applies',
    discount,
    freeShipping,
    lines,
  });
  switch (promotion.type) {
    case 'percentage_off_order':
      return ok(subtotal - discounted(subtotal, percentOf(subtotal, promotion.value)), []);
    case 'fixed_amount_off_order':
      return ok(promotion.value > subtotal ? subtotal : promotion.value, []);
    case 'free_shipping':
      return ok(0n, [], true);
    case 'percentage_off_item': {
      const lines = cart.lineItems
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => eligible(promotion, line))
        .map(({ line, index }) => ({ index, entityId: line.entityId, discount: percentOf(BigInt(line.totalPrice), promotion.value) }));
      if (!lines.length) return rejected('NO_ELIGIBLE_ITEMS', 'no line of the cart qualifies for the promotion');
      return ok(
        lines.reduce((sum, l) => sum + l.discount, 0n),
        lines,
      );
    }
    case 'buy_x_get_y': {
      const lines = buyXGetY(promotion, cart.lineItems);
      if (!lines.length) return rejected('NO_ELIGIBLE_ITEMS', `buy ${promotion.buyQuantity} qualifying units to get ${promotion.getQuantity} discounted`);
      return ok(
        lines.reduce((sum, l) => sum + l.discount, 0n),
        lines,
      );
    }
  }
}
