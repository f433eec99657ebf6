// Plumbing shared by both sides of `npm run bench:peer`: the catalog both are seeded with, CPU
// time read from /proc, medians, and a loop of concurrent shoppers.
import fs from 'node:fs';

/** 100 products × 6 variants (size × color), the same on both sides. */
export const PRODUCTS = 100;
export const SIZES = ['S', 'M', 'L'];
export const COLORS = ['red', 'blue'];
export const BRANDS = 5;
export const CATEGORIES = 5;
export const DESCRIPTION = 'A product for the load scenario.';
/** What bench/support/server.ts names and prices product i (USD minor units). */
export const productName = (i: number) => `Bench item ${i}`;
export const productSlug = (i: number) => `bench-item-${i}`;
export const productPrice = (i: number) => 1000 + i;
/** Stock per variant: far more than any run orders. */
export const STOCK = 1_000_000;

/** CPU time (user + system) a process has used so far, ms (Linux /proc/<pid>/stat, 100 ticks/s). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * `clients` shoppers each run `visit` back to back; new visits start for `seconds` (those in
 * flight then finish). Returns the visits that placed an order and those that did not.
 */
export async function shoppers(visit: () => Promise<boolean>, clients: number, seconds: number): Promise<{ orders: number; failures: number; firstError?: string }> {
  const deadline = performance.now() + seconds * 1000;
  let orders = 0;
  let failures = 0;
  let firstError: string | undefined;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        try {
          if (await visit()) orders += 1;
          else failures += 1;
        } catch (error) {
          failures += 1;
          firstError ??= String(error);
        }
      }
    }),
  );
  return { orders, failures, firstError };
}

/** Three distinct indexes below `n`, at random. */
export function pick3(n: number): number[] {
  const chosen = new Set<number>();
  while (chosen.size < 3) chosen.add(Math.floor(Math.random() * n));
  return [...chosen];
}
