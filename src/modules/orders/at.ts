// Index-for-index access to arrays built from the same lines (prices, rates, totals and
// reservations come back one per line, in order). A hole there is a bug in this code, never bad
// input, so it throws (a 500 with the index) instead of hiding behind a non-null assertion.
export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`internal: no element ${index} of ${items.length}`);
  return item;
}

/** A map's entry that the code put there itself (built from the same rows): a miss is a bug. */
export function entry<K, V>(map: ReadonlyMap<K, V>, key: K): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`internal: no entry ${String(key)}`);
  return value;
}
