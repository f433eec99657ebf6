// The orders list's query and its variables from the URL, shared by the screen and by the
// shell's prefetch (prefetch.ts): a page load of /admin/orders sends this query beside the session
// query instead of after it, and the screen finds the answer in urql's cache (or in flight) under
// the same variables.
import { graphql } from '../../gql';
import type { OrderStatus, PaymentStatus } from '../../gql/graphql';
import type { Cursor } from '../../components/Pager';

export const OrdersQuery = graphql(`
  query AdminOrders(
    $first: Int
    $last: Int
    $after: String
    $before: String
    $status: OrderStatus
    $paymentStatus: PaymentStatus
    $createdFrom: DateTime
    $createdTo: DateTime
    $search: String
  ) {
    orders(
      first: $first
      last: $last
      after: $after
      before: $before
      status: $status
      paymentStatus: $paymentStatus
      createdFrom: $createdFrom
      createdTo: $createdTo
      search: $search
    ) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        orderNumber
        status
        paymentStatus
        customerEmail
        grandTotal
        currency
        placedAt
      }
    }
  }
`);

export const SIZES = ['25', '50', '100'];

export function pageSize(params: URLSearchParams): number {
  return SIZES.includes(params.get('rows') ?? '') ? Number(params.get('rows')) : 25;
}

/** A YYYY-MM-DD from the date input as the start (or end) of that day, local time, for the API. */
function dayBound(date: string | null, end: boolean): string | undefined {
  if (!date) return undefined;
  const at = new Date(`${date}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

export function ordersVariables(params: URLSearchParams, cursor: Cursor) {
  const size = pageSize(params);
  const paging = cursor.before ? { last: size, before: cursor.before } : { first: size, after: cursor.after ?? undefined };
  return {
    ...paging,
    status: (params.get('status') as OrderStatus | null) ?? null,
    paymentStatus: (params.get('payment') as PaymentStatus | null) ?? null,
    createdFrom: dayBound(params.get('from'), false),
    createdTo: dayBound(params.get('to'), true),
    search: params.get('q') || undefined,
  };
}
