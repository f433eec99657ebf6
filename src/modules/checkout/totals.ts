// The order's money, computed once at checkout from re-resolved prices (never the cart's
// snapshots): line totals, the discount spread over lines, tax per line on its discounted
// amount, shipping, and the grand total. Pure: the same inputs always give the same numbers.
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

// ── shipping (issue 25, shipping branch) ──
/** One chosen shipping method's charge: amount before tax (exclusive mode) and its tax rate. */
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
  /** The chosen method(s); when undefined the legacy flat rule `shipping` applies. */
  shippingCharges?: ShippingCharge[];
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
  taxTotal: number;
  shippingTotal: number;
  /** Tax on the shipping charges; included in taxTotal. */
  shippingTaxTotal: number;
  /** Per shipping charge, index for index with shippingCharges (empty under the legacy rule). */
  shippingLines: Array<{ amount: number; taxTotal: number }>;
  grandTotal: number;
}

export function computeTotals(input: TotalsInput): Totals {
  const totals = input.lines.map((line) => line.unitPrice * line.quantity);
  const subtotal = totals.reduce((a, b) => a + b, 0);
  const discount = Math.min(Math.max(0, input.discountTotal), subtotal);

  // Line-attributed discounts first (capped at each line's total), the rest spread by line value.
  const direct = totals.map(() => 0);
  for (const { index, amount } of input.lineDiscounts ?? []) {
    if (index >= 0 && index < direct.length) direct[index] = Math.min(totals[index]!, direct[index]! + Math.max(0, amount));
  }
  let directSum = direct.reduce((a, b) => a + b, 0);
  if (directSum > discount) {
    // Never more than the order's discount: scale the attributed parts down to it.
    const scaled = allocate(discount, direct);
    direct.splice(0, direct.length, ...scaled);
    directSum = discount;
  }
  const spread = allocate(discount - directSum, totals.map((t, i) => t - direct[i]!));
  const lineDiscounts = totals.map((_, i) => direct[i]! + spread[i]!);

  const lines = input.lines.map((line, i) => {
    const net = totals[i]! - lineDiscounts[i]!;
    return { totalPrice: totals[i]!, discountTotal: lineDiscounts[i]!, taxTotal: taxOn(net, line.rateBps) };
  });
  const lineTax = lines.reduce((a, l) => a + l.taxTotal, 0);
  const discounted = subtotal - discount;
  // Chosen methods: each charge taxed at its own rate, on top; a free-shipping promotion zeroes them.
  const shippingLines = (input.shippingCharges ?? []).map((c) => (input.freeShipping ? { amount: 0, taxTotal: 0 } : { amount: c.amount, taxTotal: taxOn(c.amount, c.rateBps) }));
  const shippingTotal = input.shippingCharges
    ? shippingLines.reduce((a, l) => a + l.amount, 0)
    : input.freeShipping || input.lines.length === 0 || (input.shipping.freeOver !== null && discounted >= input.shipping.freeOver)
      ? 0
      : input.shipping.flatRate;
  const shippingTaxTotal = shippingLines.reduce((a, l) => a + l.taxTotal, 0);
  const taxTotal = lineTax + shippingTaxTotal;
  return { lines, subtotal, discountTotal: discount, taxTotal, shippingTotal, shippingTaxTotal, shippingLines, grandTotal: discounted + taxTotal + shippingTotal };
}
