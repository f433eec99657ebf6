// Data a page load can ask for before the session answers. Without it the first screen's query
// waits for the session query, the shell's render and the screen's chunk: on /admin/orders that
// was most of the time to the 100th row (admin:screens measures it). Only the orders list does
// this: it is the screen with a response-time target.
//
// The screen's first query under the prefetched variables reads urql's cache instead of asking
// again (`prefetchedPolicy`): with the client's cache-and-network default a finished prefetch was
// followed by the same query a few milliseconds later, so every page load sent it twice. The
// answer counts as fresh for FRESH_MS after it arrived, not "until the screen used it once": React
// may render the screen, throw that render away, or mount it a second time while the shell
// settles, and each of those mounts must find the answer. A prefetch that failed (signed out)
// leaves nothing behind, and the screen asks as usual.
import type { RequestPolicy } from 'urql';
import { client } from './api/client';
import { OrdersQuery, ordersVariables } from './screens/orders/ordersQuery';

const FRESH_MS = 5_000;

/** The variables (as JSON) of the orders query the page load asked, and when it answered (null while in flight). */
let prefetched: { key: string; answeredAt: number | null } | null = null;

export function prefetchFirstScreen(location: Location): void {
  const path = location.pathname.replace(/\/+$/, '');
  if (path !== '/admin/orders') return;
  const variables = ordersVariables(new URLSearchParams(location.search), {});
  const entry = { key: JSON.stringify(variables), answeredAt: null as number | null };
  // Noted before the answer: a screen that mounts while the prefetch is in flight joins it (urql
  // shares an operation in flight) rather than sending its own.
  prefetched = entry;
  void client
    .query(OrdersQuery, variables)
    .toPromise()
    .then((result) => {
      if (prefetched !== entry) return;
      if (result.error || !result.data) prefetched = null;
      else entry.answeredAt = Date.now();
    });
}

/**
 * The request policy for a screen's first query: cache-first when the page load prefetched these
 * variables and the answer is in flight or fresh, else the client's default (cache-and-network).
 */
export function prefetchedPolicy(variables: unknown): RequestPolicy | undefined {
  if (!prefetched || JSON.stringify(variables) !== prefetched.key) return undefined;
  if (prefetched.answeredAt !== null && Date.now() - prefetched.answeredAt > FRESH_MS) return undefined;
  return 'cache-first';
}
