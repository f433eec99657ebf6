// Promotion types and what `value` means for each (documented once, here and on the GraphQL type):
//
//   percentage_off_order    value = percent off the order subtotal (10 = 10 %, up to two decimals)
//   fixed_amount_off_order  value = minor units off the subtotal, in `currency` (required);
//                           never more than the subtotal
//   percentage_off_item     value = percent off each eligible line's totalPrice (eligible: the
//                           line's entity is in `entityIds` or its type in `entityTypes`; both
//                           empty = every line)
//   free_shipping           value = 0; the discount is 0 and `freeShipping` is true: the checkout
//                           drops the shipping charge
//   buy_x_get_y             buy `buyQuantity` eligible units, get `getQuantity` more at `value`
//                           percent off (100 = free). Units are ranked by unit price, highest
//                           first, in blocks of buy+get; in each full block the cheapest `get`
//                           units are discounted
//
// Percentages are stored as basis points, amounts as minor units (the `value` column).
import type { PromotionType } from '../../generated/prisma/client.js';
import type { FieldIssue } from '../../errors.js';
import { bpsToPercent, percentToBps } from '../pricing/rounding.js';

export const PROMOTION_TYPES = [
  'percentage_off_order',
  'fixed_amount_off_order',
  'percentage_off_item',
  'free_shipping',
  'buy_x_get_y',
] as const satisfies readonly PromotionType[];

const PERCENT_TYPES = new Set<PromotionType>(['percentage_off_order', 'percentage_off_item', 'buy_x_get_y']);

/** A promotion's definition as the rules see it (API units: percent, minor units). */
export interface PromotionDefinition {
  code: string;
  type: PromotionType;
  value: number;
  currency: string | null;
  validFrom: Date;
  validUntil: Date | null;
  usageLimit: number | null;
  usageLimitPerCustomer: number | null;
  minSubtotal: number | null;
  buyQuantity: number | null;
  getQuantity: number | null;
}

/** Codes match case-insensitively: stored and looked up upper-case. */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

/** `value` in API units → the stored integer (basis points or minor units). */
export function storedValue(type: PromotionType, value: number): bigint {
  if (PERCENT_TYPES.has(type)) return BigInt(percentToBps(value) ?? 0);
  return BigInt(Math.trunc(value));
}

/** The stored integer → `value` in API units. */
export function apiValue(type: PromotionType, stored: bigint): number {
  return PERCENT_TYPES.has(type) ? bpsToPercent(stored) : Number(stored);
}

/** Every rule a promotion definition breaks, by field. */
export function definitionIssues(def: PromotionDefinition, timesUsed = 0): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (PERCENT_TYPES.has(def.type)) {
    if (percentToBps(def.value) === null) issues.push({ field: 'value', message: `${def.type}: a percent above 0 and at most 100, with at most two decimals` });
  } else if (def.type === 'fixed_amount_off_order') {
    if (!Number.isSafeInteger(def.value) || def.value <= 0) issues.push({ field: 'value', message: 'fixed_amount_off_order: a positive whole number of minor units' });
    if (!def.currency) issues.push({ field: 'currency', message: 'fixed_amount_off_order needs the currency of its amount' });
  } else if (def.type === 'free_shipping' && def.value !== 0) {
    issues.push({ field: 'value', message: 'free_shipping takes value 0' });
  }
  if (def.type === 'buy_x_get_y') {
    if (!def.buyQuantity) issues.push({ field: 'buyQuantity', message: 'buy_x_get_y needs buyQuantity (at least 1)' });
    if (!def.getQuantity) issues.push({ field: 'getQuantity', message: 'buy_x_get_y needs getQuantity (at least 1)' });
  } else {
    if (def.buyQuantity !== null) issues.push({ field: 'buyQuantity', message: 'only for buy_x_get_y' });
    if (def.getQuantity !== null) issues.push({ field: 'getQuantity', message: 'only for buy_x_get_y' });
  }
  if (def.minSubtotal !== null && !def.currency) issues.push({ field: 'currency', message: 'a minimum subtotal needs its currency' });
  if (def.validUntil && def.validUntil <= def.validFrom) issues.push({ field: 'validUntil', message: 'must be after validFrom' });
  if (def.usageLimit !== null && def.usageLimit < timesUsed) {
    issues.push({ field: 'usageLimit', message: `the promotion has already been used ${timesUsed} times` });
  }
  return issues;
}
