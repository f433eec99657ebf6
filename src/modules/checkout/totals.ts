// The order's money, computed once at checkout from re-resolved prices (never the cart's
// snapshots): line totals, the discount spread over lines, tax per line on its discounted
// amount, shipping, and the grand total. Pure: the same inputs always give the same numbers.
//
// Two tax modes (settings `general.pricesIncludeTax`):
//   exclusive (default): tax = round_half_up(net × rate) is added on top (the spec's rule);
//   inclusive: listed prices already contain tax; tax = round_half_even(gross × rate / (1 + rate))
//     is extracted per line and nothing is added, so the shopper pays the listed price whatever
//     the destination's rate (Vendure's and Shopify's rule). Half to even so that extraction has
//     no upward bias over many lines; per line, so every line's figures stand on their own on
//     the invoice and the totals are plain sums (they reconcile to the minor unit).
// A tax-exempt order (reverse charge, customer groups) has zero tax in both modes and pays the
// listed amounts: the listed price, net in exclusive mode, the same gross in inclusive mode.
import { allocate, taxOn } from '../orders/money.js';

export interface PricedLine {
  unitPrice: number;
  quantity: number;
  rateBps: number;
}

export interface ShippingRule {
  /** Flat shipping per order, minor units (settings `shipping.flatRate`, default 0). */
  flatRate: number;
  /** Shipping is free when the discounted subtotal reaches this (settings `shipping.freeOver`). */
  freeOver: number | null;
}

/** A chosen shipping method's charge, as listed: gross when pricesIncludeTax. */
export interface ShippingCharge {
  amount: number;
  rateBps: number;
}

export interface TotalsInput {
  lines: PricedLine[];
  /** Order-level discount (promotions), minor units. */
  discountTotal: number;
  /** Discounts the promotions attributed to single lines (by index); counted inside discountTotal. */
  lineDiscounts?: Array<{ index: number; amount: number }>;
  freeShipping: boolean;
  shipping: ShippingRule;
  /** Chosen method(s); when undefined the legacy flat rule `shipping` applies (untaxed, as before). */
  shippingCharges?: ShippingCharge[];
  /** Settings general.pricesIncludeTax: listed prices (and shipping charges) contain tax. */
  pricesIncludeTax?: boolean;
  /** Reverse charge / exempt customer group: no tax on anything. */
  taxExempt?: boolean;
  /** Tax decided by an external provider (exclusive mode): per line, and on shipping, minor units. */
  providerTax?: { lines: number[]; shipping: number };
}

export interface LineTotals {
  totalPrice: number;
  discountTotal: number;
  taxTotal: number;
}

export interface Totals {
  lines: LineTotals[];
  subtotal: number;
  discountTotal: number;
  /** Lines' tax plus shippingTaxTotal; contained in the amounts when pricesIncludeTax. */
  taxTotal: number;
  shippingTotal: number;
  /** Tax on the shipping charges; included in taxTotal. */
  shippingTaxTotal: number;
  /** Per shipping charge, index for index with shippingCharges (empty under the legacy rule). */
  shippingLines: Array<{ amount: number; taxTotal: number }>;
  grandTotal: number;
}

/** round_half_even(gross × rate / (10 000 + rate)): the tax contained in a tax-inclusive amount. */
export function taxIncluded(gross: number, rateBps: number): number {
  if (gross <= 0 || rateBps <= 0) return 0;
  const num = BigInt(gross) * BigInt(rateBps);
  const den = BigInt(10_000 + rateBps);
  const q = num / den;
  const twice = (num % den) * 2n;
  const up = twice > den || (twice === den && q % 2n === 1n);
  return Number(up ? q + 1n : q);
}

export function computeTotals(input: TotalsInput): Totals {
  const totals = input.lines.map((line) => line.unitPrice * line.quantity);
  const subtotal = totals.reduce((a, b) => a + b, 0);
  const discount = Math.min(Math.max(0, input.discountTotal), subtotal);

  // Line-attributed discounts first (capped at each line's total), the rest spread by line value.
  const direct = totals.map(() => 0);
  for (const { index, amount } of input.lineDiscounts ?? []) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    if (index >= 0 && index < direct.length) direct[index] = Math.min(totals[index]!, direct[index]! + Math.max(0, amount));
  }
  let directSum = direct.reduce((a, b) => a + b, 0);
  if (directSum > discount) {
    // Never more than the order's discount: scale the attributed parts down to it.
    const scaled = allocate(discount, direct);
    direct.splice(0, direct.length, ...scaled);
    directSum = discount;
  }
  const spread = allocate(
    discount - directSum,
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    totals.map((t, i) => t - direct[i]!),
  );
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const lineDiscounts = totals.map((_, i) => direct[i]! + spread[i]!);

  const inclusive = input.pricesIncludeTax === true;
  const tax = (amount: number, rateBps: number) => (input.taxExempt ? 0 : inclusive ? taxIncluded(amount, rateBps) : taxOn(amount, rateBps));
  const provided = input.taxExempt ? undefined : input.providerTax;
  const lines = input.lines.map((line, i) => {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const net = totals[i]! - lineDiscounts[i]!;
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    return { totalPrice: totals[i]!, discountTotal: lineDiscounts[i]!, taxTotal: provided ? Math.max(0, Math.round(provided.lines[i] ?? 0)) : tax(net, line.rateBps) };
  });
  const linesTax = lines.reduce((a, l) => a + l.taxTotal, 0);
  const discounted = subtotal - discount;

  let shippingLines: Totals['shippingLines'] = [];
  let shippingTotal: number;
  if (input.shippingCharges) {
    shippingLines = input.shippingCharges.map((c) => {
      const amount = input.freeShipping ? 0 : Math.max(0, c.amount);
      return { amount, taxTotal: tax(amount, c.rateBps) };
    });
    shippingTotal = shippingLines.reduce((a, s) => a + s.amount, 0);
  } else {
    shippingTotal = input.freeShipping || input.lines.length === 0 || (input.shipping.freeOver !== null && discounted >= input.shipping.freeOver) ? 0 : input.shipping.flatRate;
  }
  let shippingTaxTotal = shippingLines.reduce((a, s) => a + s.taxTotal, 0);
  if (provided) {
    // The provider's shipping tax, spread over the charges by amount (all of it when there are none).
    shippingTaxTotal = shippingTotal > 0 ? Math.max(0, Math.round(provided.shipping)) : 0;
    const parts = allocate(
      shippingTaxTotal,
      shippingLines.map((s) => s.amount),
    );
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    shippingLines = shippingLines.map((s, i) => ({ ...s, taxTotal: parts[i]! }));
    if (shippingLines.length) shippingTaxTotal = parts.reduce((a, b) => a + b, 0);
  }
  const taxTotal = linesTax + shippingTaxTotal;
  const grandTotal = discounted + shippingTotal + (inclusive ? 0 : taxTotal);
  return { lines, subtotal, discountTotal: discount, taxTotal, shippingTotal, shippingTaxTotal, shippingLines, grandTotal };
}
