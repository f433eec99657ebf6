// Integer money arithmetic, defined once. Amounts are minor units; products that could pass 2^53
// are computed in BigInt. Rounding is half up (away from zero for the non-negative amounts here).

/** round(a × b / d), half up, for non-negative integers. */
export function mulDivRound(a: number, b: number, d: number): number {
  if (d === 0) return 0;
  const num = BigInt(a) * BigInt(b);
  const den = BigInt(d);
  return Number((num * 2n + den) / (den * 2n));
}

/** Tax on a net amount at a rate in basis points (1 bp = 0.01 %), rounded half up per line. */
export function taxOn(net: number, rateBps: number): number {
  return mulDivRound(net, rateBps, 10_000);
}

/**
 * Splits `total` over `weights` in proportion, largest remainder first, so the parts always add
 * up to `total` exactly (an order discount spread over its lines).
 */
export function allocate(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const parts = weights.map((w) => {
    const num = BigInt(total) * BigInt(w);
    return { floor: Number(num / BigInt(sum)), remainder: num % BigInt(sum) };
  });
  let left = total - parts.reduce((a, p) => a + p.floor, 0);
  const order = parts.map((p, i) => ({ i, r: p.remainder })).sort((a, b) => (b.r > a.r ? 1 : b.r < a.r ? -1 : a.i - b.i));
  const out = parts.map((p) => p.floor);
  for (const { i } of order) {
    if (left <= 0) break;
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    out[i]! += 1;
    left -= 1;
  }
  return out;
}

/**
 * What the first `units` of a line are worth out of `lineAmount` for `quantity` units. Refunds
 * take differences of it (units r+1..r+q cost share(r+q) − share(r)), so refunding every unit,
 * in any number of steps, returns exactly the line's amount.
 */
export function unitsShare(lineAmount: number, quantity: number, units: number): number {
  if (units >= quantity) return lineAmount;
  return mulDivRound(lineAmount, units, quantity);
}
