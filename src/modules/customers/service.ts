// The customer portal (/me/*) and the staff view of customers (/customers).
//
// /me needs a signed-in customer session: an API key acts for an integration, not for a shopper,
// so it is refused with 403 even when its scope would allow the permission. Every /me read and
// write is confined to the caller's customer record; another customer's address or order is 404.
import type { RequestContext } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, forbidden, notFound, validationFailed } from '../../errors.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { paginate, type Page, type PageInput } from '../../graphql/pagination.js';
import { getOrder, listFulfillments, listOrders, type FulfillmentView, type OrderView } from '../orders/index.js';
import { PERMISSION as ORDER_PERMISSION, toNumber } from '../orders/shared.js';
import type { OrderStatus } from '../../generated/prisma/client.js';
import { addressView, CUSTOMER_INCLUDE, customerPayload, customerView, type CustomerAddressView, type CustomerRow, type CustomerSummaryView, type CustomerView } from './views.js';
import './events.js';

export type CustomersCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'requestId' | 'services' | 'logger' | 'config' | 'request' | 'rest'>;

/** A customer may keep this many saved addresses. */
export const MAX_ADDRESSES = 50;

/** The caller's customer id; 403 for API keys and for users without a customer record. */
export async function requireCustomer(ctx: CustomersCtx): Promise<CustomerRow> {
  const actor = ctx.actor;
  if (!actor) throw new AppError('UNAUTHORIZED', 'Sign in: /me needs a customer session (cookie or bearer token)');
  if (actor.kind !== 'user') throw forbidden('An API key is not a customer session: /me answers for a signed-in customer only');
  const row = await ctx.db.customer.findFirst({ where: { id: actor.userId, organizationId: ctx.organization.id }, include: CUSTOMER_INCLUDE });
  if (!row) throw forbidden('This account has no customer profile: /me is for customers');
  return row;
}

/**
 * The same context narrowed to the caller's own orders: the order services then apply their
 * orders:read:own rule (own orders only, 404 for any other), whatever else the user may hold.
 */
function ownOrdersCtx(ctx: CustomersCtx, customerId: string): CustomersCtx {
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return { ...ctx, actor: { ...ctx.actor!, customerId, permissions: [ORDER_PERMISSION.readOwn] } };
}

// ── profile ──

export async function getProfile(ctx: CustomersCtx): Promise<CustomerView> {
  return customerView(await requireCustomer(ctx));
}

export interface ProfilePatch {
  name?: string;
  phone?: string | null;
  marketingConsent?: boolean;
}

export async function updateProfile(ctx: CustomersCtx, patch: ProfilePatch): Promise<CustomerView> {
  const current = await requireCustomer(ctx);
  const data: Prisma.CustomerUpdateInput = {};
  const changed: string[] = [];
  if (patch.name !== undefined && patch.name !== current.name) (data.name = patch.name), changed.push('name');
  if (patch.phone !== undefined && patch.phone !== current.phone) (data.phone = patch.phone), changed.push('phone');
  if (patch.marketingConsent !== undefined && patch.marketingConsent !== current.marketingConsent)
    (data.marketingConsent = patch.marketingConsent), changed.push('marketingConsent');
  if (!changed.length) return customerView(current);
  return withTransaction(ctx, async (tx) => {
    const row = await tx.customer.update({ where: { id: current.id }, data, include: CUSTOMER_INCLUDE });
    // The user's display name follows the profile so sign-in screens agree with it.
    if (data.name !== undefined) await tx.user.update({ where: { id: current.id }, data: { name: row.name } });
    await recordEvent(tx, originOf(ctx), 'customers.update', { customer: customerPayload(row), changed });
    return customerView(row);
  });
}

// ── addresses ──

export interface AddressInput {
  firstName: string;
  lastName: string;
  company?: string;
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postalCode: string;
  country: string;
  phone?: string;
  isDefaultShipping: boolean;
  isDefaultBilling: boolean;
}

export async function listAddresses(ctx: CustomersCtx): Promise<CustomerAddressView[]> {
  const customer = await requireCustomer(ctx);
  const rows = await ctx.db.customerAddress.findMany({ where: { customerId: customer.id, organizationId: ctx.organization.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(addressView);
}

export async function addAddress(ctx: CustomersCtx, input: AddressInput): Promise<CustomerAddressView> {
  const customer = await requireCustomer(ctx);
  return withTransaction(ctx, async (tx) => {
    // Serializes concurrent adds of one customer, so the limit and the single defaults hold.
    await tx.$queryRaw`select id from customers where id = ${customer.id} for update`;
    const count = await tx.customerAddress.count({ where: { customerId: customer.id } });
    if (count >= MAX_ADDRESSES) throw new AppError('CONFLICT', `A customer keeps at most ${MAX_ADDRESSES} addresses; delete one first`);
    // The first address is the default for both until the customer says otherwise.
    const isDefaultShipping = input.isDefaultShipping || count === 0;
    const isDefaultBilling = input.isDefaultBilling || count === 0;
    if (isDefaultShipping) await tx.customerAddress.updateMany({ where: { customerId: customer.id, isDefaultShipping: true }, data: { isDefaultShipping: false } });
    if (isDefaultBilling) await tx.customerAddress.updateMany({ where: { customerId: customer.id, isDefaultBilling: true }, data: { isDefaultBilling: false } });
    const row = await tx.customerAddress.create({
      data: {
        organizationId: ctx.organization.id,
        customerId: customer.id,
        firstName: input.firstName,
        lastName: input.lastName,
        company: input.company ?? null,
        line1: input.line1,
        line2: input.line2 ?? null,
        city: input.city,
        state: input.state ?? null,
        postalCode: input.postalCode,
        country: input.country.toUpperCase(),
        phone: input.phone ?? null,
        isDefaultShipping,
        isDefaultBilling,
      },
    });
    return addressView(row);
  });
}

export async function deleteAddress(ctx: CustomersCtx, id: string): Promise<CustomerAddressView> {
  const customer = await requireCustomer(ctx);
  return withTransaction(ctx, async (tx) => {
    const row = await tx.customerAddress.findFirst({ where: { id, customerId: customer.id, organizationId: ctx.organization.id } });
    if (!row) throw notFound('Address');
    await tx.customerAddress.delete({ where: { id: row.id } });
    return addressView(row);
  });
}

// ── orders ──

export async function myOrders(ctx: CustomersCtx, input: { status?: OrderStatus } & PageInput): Promise<Page<OrderView>> {
  const customer = await requireCustomer(ctx);
  return listOrders(ownOrdersCtx(ctx, customer.id), input);
}

export async function myOrder(ctx: CustomersCtx, idOrNumber: string): Promise<OrderView> {
  const customer = await requireCustomer(ctx);
  return getOrder(ownOrdersCtx(ctx, customer.id), idOrNumber);
}

export interface TrackingView {
  orderId: string;
  orderNumber: string;
  status: string;
  fulfillments: FulfillmentView[];
  lines: Array<{
    lineItemId: string;
    sku: string;
    title: string;
    quantity: number;
    fulfilledQuantity: number;
    fulfillmentStatus: string;
    shipments: Array<{ fulfillmentId: string; quantity: number; carrier: string | null; trackingNumber: string | null; trackingUrl: string | null }>;
  }>;
}

export async function myOrderTracking(ctx: CustomersCtx, idOrNumber: string): Promise<TrackingView> {
  const customer = await requireCustomer(ctx);
  const own = ownOrdersCtx(ctx, customer.id);
  const order = await getOrder(own, idOrNumber);
  const fulfillments = await listFulfillments(own, order.id);
  return {
    orderId: order.id,
    orderNumber: order.number,
    status: order.status,
    fulfillments,
    lines: order.lineItems.map((line) => ({
      lineItemId: line.lineItemId,
      sku: line.sku,
      title: line.title,
      quantity: line.quantity,
      fulfilledQuantity: line.fulfilledQuantity,
      fulfillmentStatus: line.fulfillmentStatus,
      shipments: fulfillments.flatMap((f) =>
        f.lines
          .filter((l) => l.lineItemId === line.lineItemId)
          .map((l) => ({ fulfillmentId: f.id, quantity: l.quantity, carrier: f.carrier, trackingNumber: f.trackingNumber, trackingUrl: f.trackingUrl })),
      ),
    })),
  };
}

// ── staff ──

export async function listCustomers(ctx: CustomersCtx, input: { search?: string } & PageInput): Promise<Page<CustomerSummaryView>> {
  const where: Prisma.CustomerWhereInput = {
    organizationId: ctx.organization.id,
    ...(input.search ? { OR: [{ email: { contains: input.search, mode: 'insensitive' } }, { name: { contains: input.search, mode: 'insensitive' } }] } : {}),
  };
  return paginate(ctx, input, {
    list: 'customers',
    model: 'Customer',
    where,
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    findMany: (args) => ctx.db.customer.findMany({ ...args, include: CUSTOMER_INCLUDE }),
    count: (w) => ctx.db.customer.count({ where: w }),
    view: async (rows) => {
      const stats = await orderStats(
        ctx,
        rows.map((r) => r.id),
      );
      return rows.map((row) => withStats(row, stats.get(row.id)));
    },
  });
}

export async function getCustomer(ctx: CustomersCtx, id: string): Promise<CustomerSummaryView> {
  const row = await ctx.db.customer.findFirst({ where: { id, organizationId: ctx.organization.id }, include: CUSTOMER_INCLUDE });
  if (!row) throw notFound('Customer');
  const stats = await orderStats(ctx, [row.id]);
  return withStats(row, stats.get(row.id));
}

/** Staff's edit of a customer (PATCH /customers/:id): only what changed is written and announced. */
export async function updateCustomer(ctx: CustomersCtx, id: string, patch: { name?: string; phone?: string | null; customerGroupIds?: string[] }): Promise<CustomerSummaryView> {
  const current = await ctx.db.customer.findFirst({ where: { id, organizationId: ctx.organization.id }, include: CUSTOMER_INCLUDE });
  if (!current) throw notFound('Customer');
  const data: Prisma.CustomerUpdateInput = {};
  const changed: string[] = [];
  if (patch.name !== undefined && patch.name !== current.name) (data.name = patch.name), changed.push('name');
  if (patch.phone !== undefined && patch.phone !== current.phone) (data.phone = patch.phone), changed.push('phone');
  const groups = patch.customerGroupIds === undefined ? undefined : [...new Set(patch.customerGroupIds)];
  if (groups !== undefined && (groups.length !== current.customerGroupIds.length || groups.some((g, i) => g !== current.customerGroupIds[i])))
    (data.customerGroupIds = groups), changed.push('customerGroupIds');
  if (!changed.length) return getCustomer(ctx, id);
  await withTransaction(ctx, async (tx) => {
    const row = await tx.customer.update({ where: { id: current.id }, data, include: CUSTOMER_INCLUDE });
    if (data.name !== undefined) await tx.user.update({ where: { id: current.id }, data: { name: row.name } });
    await recordEvent(tx, originOf(ctx), 'customers.update', { customer: customerPayload(row), changed });
  });
  return getCustomer(ctx, id);
}

interface OrderStats {
  ordersCount: number;
  lifetimeValue: number;
  lastOrderAt: Date | null;
}

/** Orders count and lifetime value (captured − refunded) of a page of customers: one statement. */
async function orderStats(ctx: CustomersCtx, ids: string[]): Promise<Map<string, OrderStats>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db.order.groupBy({
    by: ['customerId'],
    where: { organizationId: ctx.organization.id, customerId: { in: ids } },
    _count: { _all: true },
    _sum: { capturedAmount: true, refundedAmount: true },
    _max: { placedAt: true },
  });
  return new Map(
    rows.map((r) => [
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      r.customerId!,
      { ordersCount: r._count._all, lifetimeValue: toNumber(r._sum.capturedAmount ?? 0n) - toNumber(r._sum.refundedAmount ?? 0n), lastOrderAt: r._max.placedAt },
    ]),
  );
}

function withStats(row: CustomerRow, stats: OrderStats | undefined): CustomerSummaryView {
  return { ...customerView(row), ordersCount: stats?.ordersCount ?? 0, lifetimeValue: stats?.lifetimeValue ?? 0, lastOrderAt: stats?.lastOrderAt ?? null };
}

export { validationFailed };

// ── graph relations (batched: one call serves a whole level of a response) ──

/** Customers by id with their order stats: two statements for any number of ids. */
export async function customersByIds(ctx: CustomersCtx, ids: string[]): Promise<Map<string, CustomerSummaryView>> {
  const rows = await ctx.db.customer.findMany({ where: { id: { in: ids }, organizationId: ctx.organization.id }, include: CUSTOMER_INCLUDE });
  const stats = await orderStats(
    ctx,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((row) => [row.id, withStats(row, stats.get(row.id))]));
}

/** Every saved address of these customers, defaults first then oldest first: one statement. */
export async function addressesByCustomer(ctx: Pick<CustomersCtx, 'db' | 'organization'>, ids: string[]): Promise<Map<string, CustomerAddressView[]>> {
  const rows = await ctx.db.customerAddress.findMany({
    where: { customerId: { in: ids }, organizationId: ctx.organization.id },
    orderBy: [{ isDefaultShipping: 'desc' }, { isDefaultBilling: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }],
  });
  const map = new Map<string, CustomerAddressView[]>();
  for (const row of rows) map.set(row.customerId, [...(map.get(row.customerId) ?? []), addressView(row)]);
  return map;
}
