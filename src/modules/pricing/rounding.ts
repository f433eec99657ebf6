// Rounding, defined once for every percentage in the service (price modifiers, promotions, tax):
//
//   part = round_half_up(amount × basisPoints / 10 000)      (in integer minor units)
//
// computed exactly in bigint arithmetic, so 12.5 % of 999 is 124.875 → 125, and 10 % of 5 is
// 0.5 → 1. A discount is that part subtracted from the amount, never below zero; a tax is that
// part added. Amounts are non-negative minor units; percentages are basis points (1 % = 100).
export const BPS_PER_WHOLE = 10_000n;

/** round_half_up(amount × bps / 10 000) for non-negative amount and bps. */
export function percentOf(amount: bigint, bps: bigint | number): bigint {
  const rate = BigInt(bps);
  if (amount < 0n || rate < 0n) throw new RangeError('percentOf takes non-negative amounts and rates');
  return (amount * rate * 2n + BPS_PER_WHOLE) / (BPS_PER_WHOLE * 2n);
}

/** `amount` less `discount`, floored at zero. */
export function discounted(amount: bigint, discount: bigint): bigint {
  return discount >= amount ? 0n : amount - discount;
}

/**
 * A percentage as people write it (10, 12.5, 33.33) to basis points; null when it has more than
 * two decimals or lies outside (0, 100].
 */
export function percentToBps(percent: number): number | null {
  const bps = Math.round(percent * 100);
  if (Math.abs(bps - percent * 100) > 1e-6 || bps <= 0 || bps > 10_000) return null;
  return bps;
}

export function bpsToPercent(bps: number | bigint): number {
  return Number(bps) / 100;
}
