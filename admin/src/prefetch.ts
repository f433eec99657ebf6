// Data a page load can ask for before the session answers. Without it the first screen's query
// waits for the session query, the shell's render and the screen's chunk: on /admin/orders that
// was most of the time to the 100th row (admin:screens measures it). Only the orders list does
// this: it is the screen with a response-time target. A signed-out load answers an error here;
// the screen asks again after sign-in (cache-and-network), so nothing stale is kept for long.
import { client } from './api/client';
import { OrdersQuery, ordersVariables } from './screens/orders/ordersQuery';

export function prefetchFirstScreen(location: Location): void {
  const path = location.pathname.replace(/\/+$/, '');
  if (path === '/admin/orders') void client.query(OrdersQuery, ordersVariables(new URLSearchParams(location.search), {})).toPromise();
}
