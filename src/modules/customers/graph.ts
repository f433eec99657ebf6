// Customer relations in the graph: order → customer, customer → orders and addresses (staff's
// `Customer` and the signed-in customer's own `CustomerProfile`). Each resolves when selected,
// batched: one call per relation per level of a response, whatever the page size. Each carries
// the rule of the REST route that shows the same data:
//   - a Customer (order.customer): customers:read (GET /customers/:id), or the customer's own
//     session (their own record, as /me/profile shows it); anyone else gets null with a
//     FORBIDDEN error for that field;
//   - customer.orders: orders:read (GET /orders), or orders:read:own for the customer's own;
//   - customer.addresses: customers:read, or the customer's own session (GET /me/addresses).
// A customer therefore never reaches another customer's order or address through any path:
// the only Customer they can reach is their own.
import type { RequestContext } from '../../context.js';
import { hasPermission } from '../../auth/permissions.js';
import { forbidden } from '../../errors.js';
import { builder } from '../../graphql/builder.js';
import { batchLoader, graphOnly } from '../../graphql/loaders.js';
import { listSize } from '../../graphql/cost.js';
import { CUSTOMER_ORDERS_MAX, OrderRef, recentOrdersByCustomer, type OrderView } from '../orders/index.js';
import { PERMISSION as ORDER_PERMISSION } from '../orders/shared.js';
import { addressesByCustomer, customersByIds } from './service.js';
import { CustomerAddressRef, CustomerProfileRef, CustomerRef } from './types.js';
import type { CustomerAddressView, CustomerSummaryView } from './views.js';

const CUSTOMERS_READ = 'customers:read';

/** The signed-in customer's own session (an API key is never a customer). */
function isOwnSession(ctx: RequestContext, customerId: string): boolean {
  return ctx.actor?.kind === 'user' && ctx.actor.customerId === customerId;
}

function can(ctx: RequestContext, permission: string): boolean {
  return hasPermission(ctx.actor?.permissions ?? [], permission);
}

function assertCustomerVisible(ctx: RequestContext, customerId: string): void {
  if (!can(ctx, CUSTOMERS_READ) && !isOwnSession(ctx, customerId)) throw forbidden(`Insufficient permissions: missing permission ${CUSTOMERS_READ}`);
}

function assertOrdersVisible(ctx: RequestContext, customerId: string): void {
  if (can(ctx, ORDER_PERMISSION.read)) return;
  if (isOwnSession(ctx, customerId) && can(ctx, ORDER_PERMISSION.readOwn)) return;
  throw forbidden(`Insufficient permissions: missing permission ${ORDER_PERMISSION.read}`);
}

builder.objectFields(OrderRef, (t) => ({
  customer: t.field({
    type: CustomerRef,
    nullable: true,
    description:
      "The customer who placed the order (null for guest orders). Needs customers:read, as GET /customers/:id; a customer's own session sees its own record; anyone else gets null and a FORBIDDEN error for this field.",
    resolve: async (order, _args, ctx) => {
      if (!order.customerId) return null;
      assertCustomerVisible(ctx, order.customerId);
      return batchLoader<CustomerSummaryView | null>(
        ctx,
        'customers.byId',
        (ids) => customersByIds(ctx, ids),
        () => null,
      ).load(order.customerId);
    },
  }),
}));

const LIMIT_NOTE = `Newest orders first, at most this many (default 10, at most ${CUSTOMER_ORDERS_MAX}; larger values are clamped)`;

function ordersOf(ctx: RequestContext, customerId: string, limit: number | null | undefined): Promise<OrderView[]> {
  assertOrdersVisible(ctx, customerId);
  const applied = Math.max(1, Math.min(limit ?? 10, CUSTOMER_ORDERS_MAX));
  return batchLoader<OrderView[]>(
    ctx,
    `customers.orders.${applied}`,
    (ids) => recentOrdersByCustomer(ctx, ids, applied),
    () => [],
  ).load(customerId);
}

function addressesOf(ctx: RequestContext, customerId: string): Promise<CustomerAddressView[]> {
  assertCustomerVisible(ctx, customerId);
  return batchLoader<CustomerAddressView[]>(
    ctx,
    'customers.addresses',
    (ids) => addressesByCustomer(ctx, ids),
    () => [],
  ).load(customerId);
}

const ORDERS_NOTE =
  "The customer's orders, newest first. Needs orders:read (as GET /orders), or orders:read:own in the customer's own session; otherwise null with a FORBIDDEN error for this field.";
const ADDRESSES_NOTE =
  "Every saved address, default shipping then default billing first, then oldest first. Needs customers:read, or the customer's own session (as GET /me/addresses).";

builder.objectFields(CustomerRef, (t) => ({
  orders: t.field({
    type: [OrderRef],
    nullable: true,
    args: { limit: t.arg.int({ required: false, defaultValue: 10, description: LIMIT_NOTE }) },
    extensions: listSize(10, CUSTOMER_ORDERS_MAX),
    description: ORDERS_NOTE,
    resolve: (customer, args, ctx) => ordersOf(ctx, customer.id, args.limit),
  }),
  addresses: t.field({ type: [CustomerAddressRef], nullable: true, description: ADDRESSES_NOTE, resolve: (customer, _args, ctx) => addressesOf(ctx, customer.id) }),
}));

builder.objectFields(CustomerProfileRef, (t) => ({
  orders: t.field({
    type: [OrderRef],
    nullable: true,
    args: { limit: t.arg.int({ required: false, defaultValue: 10, description: LIMIT_NOTE }) },
    extensions: listSize(10, CUSTOMER_ORDERS_MAX),
    description: ORDERS_NOTE,
    resolve: (customer, args, ctx) => ordersOf(ctx, customer.id, args.limit),
  }),
  addresses: t.field({ type: [CustomerAddressRef], nullable: true, description: ADDRESSES_NOTE, resolve: (customer, _args, ctx) => addressesOf(ctx, customer.id) }),
}));

graphOnly('Order', 'customer');
graphOnly('Customer', 'orders', 'addresses');
graphOnly('CustomerProfile', 'orders', 'addresses');
