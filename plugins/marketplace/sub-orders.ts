// Sub-orders: one per vendor of an order, written by the `checkout.beforeCommit` hook inside the
// checkout transaction (lines, totals and the commission of each line with the rule applied,
// copied), so an order and its sub-orders exist together or not at all.
//
// States (README): pending → confirmed → shipped → delivered; pending | confirmed → cancelled.
// The parent order follows: the first confirmation moves a paid order to processing; a shipment
// records a fulfillment of the sub-order's lines (stock consumed, carrier and tracking number
// kept) and the order becomes partially_fulfilled, then fulfilled when every live sub-order has
// shipped; cancelling refunds that part through the order's refund machinery (when paid) and
// gives its stock back; the last live sub-order cancelled cancels the order. Delivery books the
// vendor's credit in the ledger (available after the holding period).
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../src/generated/prisma/client.js';
import type { Tx } from '../../src/db/client.js';
import { inTransaction, withTransaction } from '../../src/db/transaction.js';
import { AppError, notFound } from '../../src/errors.js';
import type { HookContext } from '../../src/events/hooks.js';
import { originOf, type EventOrigin } from '../../src/events/outbox.js';
import type { CheckoutBeforeCommitPayload } from '../../src/modules/checkout/hooks.js';
import { portsOf } from '../../src/modules/checkout/wiring.js';
import { lockOrder, moveOrder } from '../../src/modules/orders/service.js';
import { fulfillLines } from '../../src/modules/orders/fulfillments.js';
import { createRefund } from '../../src/modules/orders/refunds.js';
import { actorRecord, serviceCtx } from '../../src/modules/orders/shared.js';
import type { OrderRow } from '../../src/modules/orders/views.js';
import { resolverFrom, ruleFromJson, rulesJsonSql, type RuleJson } from './commission.js';
import { book, DAY_MS } from './ledger.js';
import { assertMove, emit, iso, num, page, scopeWhere, type Audience, type Ctx, type Moves } from './shared.js';

export const SUB_ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;
export type SubOrderStatus = (typeof SUB_ORDER_STATUSES)[number];
export const SUB_ORDER_MOVES: Moves<SubOrderStatus> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

const INCLUDE = { lines: { orderBy: { orderLineId: 'asc' } } } satisfies Prisma.MarketplaceSubOrderInclude;
type SubOrderRow = Prisma.MarketplaceSubOrderGetPayload<{ include: typeof INCLUDE }>;
/** A sub-order row with its lines, as `lockSubOrder` returns it. */
export type SubOrder = SubOrderRow;
type SubOrderBase = Prisma.MarketplaceSubOrderGetPayload<object>;

export function subOrderView(s: SubOrderBase & { lines?: SubOrderRow['lines'] }) {
  return {
    id: s.id,
    orderId: s.orderId,
    vendorId: s.vendorId,
    customerId: s.customerId,
    status: s.status as SubOrderStatus,
    currency: s.currency,
    subtotal: num(s.subtotal),
    discountTotal: num(s.discountTotal),
    taxTotal: num(s.taxTotal),
    total: num(s.total),
    commissionTotal: num(s.commissionTotal),
    netAmount: num(s.netAmount),
    trackingNumber: s.trackingNumber,
    carrier: s.carrier,
    cancelReason: s.cancelReason,
    confirmedAt: iso(s.confirmedAt),
    shippedAt: iso(s.shippedAt),
    deliveredAt: iso(s.deliveredAt),
    cancelledAt: iso(s.cancelledAt),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    ...(s.lines
      ? {
          lines: s.lines.map((l) => ({
            id: l.id,
            orderLineId: l.orderLineId,
            entityId: l.entityId,
            variantId: l.variantId,
            sku: l.sku,
            title: l.title,
            quantity: l.quantity,
            unitPrice: num(l.unitPrice),
            total: num(l.total),
            commissionAmount: num(l.commissionAmount),
            commissionRule: l.commissionRule,
          })),
        }
      : {}),
  };
}
export type SubOrderView = ReturnType<typeof subOrderView>;

/** The vendor of a catalog entity: `metadata.vendorId` (the optional vendorId of catalog entities). */
export function vendorIdOf(metadata: unknown): string | null {
  const v = (metadata as { vendorId?: unknown } | null)?.vendorId;
  return typeof v === 'string' ? v : null;
}

/**
 * The checkout hook: one sub-order per vendor of the order's lines, in checkout's transaction.
 * Two statements whatever the number of vendors and lines: the lines' vendors with their status,
 * categories and the commission rules in force (one), and every sub-order, its lines and its
 * marketplace.subOrder.create event (one INSERT). The rows are built
 * here in full, so the events carry the sub-orders as written without reading them back.
 */
export async function createSubOrders(payload: CheckoutBeforeCommitPayload, hook: HookContext): Promise<void> {
  const tx = hook.tx as Tx;
  const organizationId = hook.organization.id;
  const entityIds = [...new Set(payload.lines.map((l) => l.entityId))];
  // One statement: each entity's vendor_key (metadata.vendorId when it is a string, as vendorIdOf
  // reads it), that vendor's status when it exists, the entity's categories, and the commission
  // rules in force (the same on every row).
  const at = new Date();
  const owners = await tx.$queryRaw<Array<{ entity_id: string; vendor_key: string | null; vendor_status: string | null; categories: string[]; rules: RuleJson[] }>>`
    select e.id as entity_id, k.vendor_key, v.status as vendor_status,
      array(select c.category_id::text from catalog_entity_categories c where c.entity_id = e.id and c.organization_id = e.organization_id) as categories,
      ${rulesJsonSql(organizationId, at)} as rules
    from catalog_entities e
    cross join lateral (select case when jsonb_typeof(e.metadata->'vendorId') = 'string' then e.metadata->>'vendorId' end as vendor_key) k
    left join plugin_marketplace_vendors v on v.organization_id = e.organization_id and v.id::text = k.vendor_key
    where e.organization_id = ${organizationId}::uuid and e.id = any(${entityIds}::uuid[])`;
  const vendorOfEntity = new Map(owners.map((o) => [o.entity_id, o.vendor_key]));
  const statusOfVendor = new Map(owners.filter((o) => o.vendor_key).map((o) => [o.vendor_key!, o.vendor_status]));
  const byVendor = new Map<string, CheckoutBeforeCommitPayload['lines']>();
  for (const line of payload.lines) {
    const vendorId = vendorOfEntity.get(line.entityId);
    if (!vendorId) continue; // the shop's own goods: no sub-order
    byVendor.set(vendorId, [...(byVendor.get(vendorId) ?? []), line]);
  }
  if (!byVendor.size) return;
  const closed = [...byVendor.keys()].filter((id) => statusOfVendor.get(id) !== 'approved');
  if (closed.length)
    throw new AppError(
      'VALIDATION_FAILED',
      `${closed.length} item(s) belong to a vendor that is not approved to sell`,
      closed.map((vendorId) => ({ field: 'lines', message: `vendor ${vendorId} is not approved to sell`, reason: 'VENDOR_NOT_APPROVED' })),
    );
  const commission = resolverFrom(
    (owners[0]?.rules ?? []).map(ruleFromJson),
    owners.flatMap((o) => o.categories.map((categoryId) => ({ entityId: o.entity_id, categoryId }))),
  );
  const subOrders: SubOrderRow[] = [];
  for (const [vendorId, lines] of [...byVendor].sort(([a], [b]) => a.localeCompare(b))) {
    const priced = lines.map((l) => {
      const net = l.totalPrice - l.discountTotal;
      const c = commission(vendorId, l.entityId, net);
      return { line: l, total: net + l.taxTotal, commission: c };
    });
    const subtotal = lines.reduce((a, l) => a + l.totalPrice, 0);
    const discountTotal = lines.reduce((a, l) => a + l.discountTotal, 0);
    const taxTotal = lines.reduce((a, l) => a + l.taxTotal, 0);
    const total = priced.reduce((a, p) => a + p.total, 0);
    const commissionTotal = priced.reduce((a, p) => a + p.commission.amount, 0);
    const id = randomUUID();
    const now = new Date();
    subOrders.push({
      id,
      organizationId,
      orderId: payload.orderId,
      vendorId,
      customerId: payload.customerId,
      status: 'pending',
      currency: payload.currency,
      subtotal: BigInt(subtotal),
      discountTotal: BigInt(discountTotal),
      taxTotal: BigInt(taxTotal),
      total: BigInt(total),
      commissionTotal: BigInt(commissionTotal),
      netAmount: BigInt(total - commissionTotal),
      trackingNumber: null,
      carrier: null,
      cancelReason: null,
      confirmedAt: null,
      shippedAt: null,
      deliveredAt: null,
      cancelledAt: null,
      createdAt: now,
      updatedAt: now,
      lines: priced
        .map((p) => ({
          id: randomUUID(),
          organizationId,
          subOrderId: id,
          orderLineId: p.line.id,
          entityId: p.line.entityId,
          variantId: p.line.variantId,
          sku: p.line.sku,
          title: p.line.title,
          quantity: p.line.quantity,
          unitPrice: BigInt(p.line.unitPrice),
          total: BigInt(p.total),
          commissionAmount: BigInt(p.commission.amount),
          commissionRule: (p.commission.rule ?? null) as Prisma.JsonValue,
        }))
        .sort((a, b) => (a.orderLineId < b.orderLineId ? -1 : a.orderLineId > b.orderLineId ? 1 : 0)), // INCLUDE's order
    });
  }
  await insertSubOrders(tx, subOrders, originOf({ organization: hook.organization, actor: hook.actor, requestId: `checkout:${payload.orderId}` }));
}

/** Every sub-order, its lines and its marketplace.subOrder.create event, in one statement. */
async function insertSubOrders(tx: Tx, subOrders: SubOrderRow[], origin: EventOrigin): Promise<void> {
  const orders = subOrders.map((s) => ({
    id: s.id,
    order_id: s.orderId,
    vendor_id: s.vendorId,
    customer_id: s.customerId,
    status: s.status,
    currency: s.currency,
    subtotal: Number(s.subtotal),
    discount_total: Number(s.discountTotal),
    tax_total: Number(s.taxTotal),
    total: Number(s.total),
    commission_total: Number(s.commissionTotal),
    net_amount: Number(s.netAmount),
    created_at: s.createdAt.toISOString(),
  }));
  const lines = subOrders.flatMap((s) =>
    s.lines.map((l) => ({
      id: l.id,
      sub_order_id: l.subOrderId,
      order_line_id: l.orderLineId,
      entity_id: l.entityId,
      variant_id: l.variantId,
      sku: l.sku,
      title: l.title,
      quantity: l.quantity,
      unit_price: Number(l.unitPrice),
      total: Number(l.total),
      commission_amount: Number(l.commissionAmount),
      commission_rule: l.commissionRule,
    })),
  );
  const events = subOrders.map((s) => ({ payload: { subOrder: subOrderView(s) }, created_at: s.createdAt.toISOString() }));
  const org = subOrders[0]!.organizationId;
  await tx.$executeRaw`
    with subs as (
      insert into plugin_marketplace_sub_orders (id, organization_id, order_id, vendor_id, customer_id, status, currency, subtotal, discount_total,
        tax_total, total, commission_total, net_amount, created_at, updated_at)
      select x.id, ${org}::uuid, x.order_id, x.vendor_id, x.customer_id, x.status, x.currency, x.subtotal, x.discount_total,
        x.tax_total, x.total, x.commission_total, x.net_amount, x.created_at, x.created_at
      from jsonb_to_recordset(${JSON.stringify(orders)}::jsonb) as x(id uuid, order_id uuid, vendor_id uuid, customer_id text, status text, currency text,
        subtotal bigint, discount_total bigint, tax_total bigint, total bigint, commission_total bigint, net_amount bigint, created_at timestamptz)
    ),
    lines as (
      insert into plugin_marketplace_sub_order_lines (id, organization_id, sub_order_id, order_line_id, entity_id, variant_id, sku, title, quantity,
        unit_price, total, commission_amount, commission_rule)
      select x.id, ${org}::uuid, x.sub_order_id, x.order_line_id, x.entity_id, x.variant_id, x.sku, x.title, x.quantity,
        x.unit_price, x.total, x.commission_amount, coalesce(x.commission_rule, 'null'::jsonb)
      from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as x(id uuid, sub_order_id uuid, order_line_id uuid, entity_id uuid, variant_id uuid, sku text,
        title text, quantity int, unit_price bigint, total bigint, commission_amount bigint, commission_rule jsonb)
    )
    insert into events (id, organization_id, type, payload, actor_id, request_id, created_at)
    select gen_random_uuid(), ${origin.organizationId}::uuid, 'marketplace.subOrder.create', x.payload, ${origin.actorId ?? null}, ${origin.requestId ?? null}, x.created_at
    from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as x(payload jsonb, created_at timestamptz)`;
}

export interface ListInput {
  status?: SubOrderStatus;
  vendorId?: string;
  orderId?: string;
  limit: number;
  offset: number;
}

export async function listSubOrders(ctx: Ctx, audience: Audience, input: ListInput) {
  const where: Prisma.MarketplaceSubOrderWhereInput = {
    ...scopeWhere(ctx, audience),
    ...(input.status ? { status: input.status } : {}),
    ...(input.vendorId && audience.kind === 'admin' ? { vendorId: input.vendorId } : {}),
    ...(input.orderId ? { orderId: input.orderId } : {}),
  };
  const [rows, total] = await Promise.all([
    ctx.db.marketplaceSubOrder.findMany({ where, include: INCLUDE, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: input.limit, skip: input.offset }),
    ctx.db.marketplaceSubOrder.count({ where }),
  ]);
  return page(rows.map(subOrderView), total, input.limit, input.offset);
}

export async function getSubOrder(ctx: Ctx, audience: Audience, id: string) {
  const row = await ctx.db.marketplaceSubOrder.findFirst({ where: { id, ...scopeWhere(ctx, audience) }, include: INCLUDE });
  if (!row) throw notFound('Sub-order');
  return subOrderView(row);
}

/**
 * Locks the sub-order row (within the audience: another vendor's is 404). Everything that moves,
 * refunds or debits a sub-order takes this lock first (then the order's), so those writes of
 * one sub-order run one after the other.
 */
export async function lockSubOrder(tx: Tx, ctx: Ctx, audience: Audience, id: string): Promise<SubOrderRow> {
  const scope = scopeWhere(ctx, audience);
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    select id from plugin_marketplace_sub_orders
    where id = ${id}::uuid and organization_id = ${scope.organizationId}::uuid
      and (${scope.vendorId ?? null}::uuid is null or vendor_id = ${scope.vendorId ?? null}::uuid)
      and (${scope.customerId ?? null}::text is null or customer_id = ${scope.customerId ?? null})
    for update`;
  if (!rows.length) throw notFound('Sub-order');
  return tx.marketplaceSubOrder.findUniqueOrThrow({ where: { id }, include: INCLUDE });
}

export interface MoveInput {
  to: SubOrderStatus;
  trackingNumber?: string | null;
  carrier?: string | null;
  reason?: string | null;
}

/**
 * The context the parent order's own machinery (lock, status moves, fulfillment, refund) runs
 * with: a vendor has no orders permission, but moving its own sub-order (already found within
 * its vendorId) must move that one order. The grant covers only these internal calls.
 */
export function orderCtx(ctx: Ctx): Ctx {
  if (!ctx.actor) return ctx;
  return { ...ctx, actor: { ...ctx.actor, permissions: [...ctx.actor.permissions, 'orders:read', 'orders:update'] } };
}

export interface MoveDeps {
  holdingDays: number;
}

/** Moves a sub-order (vendor portal or admin PATCH) and lets the parent order follow. */
export async function moveSubOrder(ctx: Ctx, audience: Audience, id: string, input: MoveInput, deps: MoveDeps) {
  return withTransaction(ctx, async (tx) => {
    const sub = await lockSubOrder(tx, ctx, audience, id);
    assertMove('sub-order', SUB_ORDER_MOVES, sub.status, input.to);
    const octx = orderCtx(inTransaction(ctx, tx));
    const order = await lockOrder(tx, octx, sub.orderId);
    const now = new Date();
    const data: Prisma.MarketplaceSubOrderUpdateInput = { status: input.to };
    if (input.to === 'confirmed') {
      if (!['confirmed', 'processing', 'partially_fulfilled'].includes(order.status)) {
        throw new AppError('INVALID_TRANSITION', `the order is ${order.status}: a sub-order is confirmed once its order is paid`, {
          from: sub.status,
          to: 'confirmed',
          orderStatus: order.status,
        });
      }
      if (order.status === 'confirmed')
        await moveOrder(tx, octx, order, { trigger: 'patch', to: 'processing', actor: actorRecord(ctx), reason: `sub-order ${sub.id} confirmed by its vendor` });
      data.confirmedAt = now;
    } else if (input.to === 'shipped') {
      await ship(tx, octx, sub, input);
      Object.assign(data, { shippedAt: now, trackingNumber: input.trackingNumber ?? null, carrier: input.carrier ?? null });
    } else if (input.to === 'delivered') {
      data.deliveredAt = now;
      await book(tx, {
        organizationId: ctx.organization.id,
        vendorId: sub.vendorId,
        kind: 'sale',
        amount: num(sub.netAmount),
        currency: sub.currency,
        reference: `sale:${sub.id}`,
        subOrderId: sub.id,
        availableAt: new Date(now.getTime() + deps.holdingDays * DAY_MS),
      });
    } else if (input.to === 'cancelled') {
      await cancel(tx, octx, sub, order, input.reason ?? null);
      Object.assign(data, { cancelledAt: now, cancelReason: input.reason ?? null });
    }
    const row = await tx.marketplaceSubOrder.update({ where: { id: sub.id }, data, include: INCLUDE });
    await emit(tx, ctx, 'marketplace.subOrder.statusChange', { subOrder: subOrderView(row), from: sub.status, to: input.to });
    return subOrderView(row);
  });
}

/** A fulfillment of the sub-order's lines; the order becomes fulfilled when every live sub-order has shipped. */
async function ship(tx: Tx, ctx: Ctx, sub: SubOrderRow, input: MoveInput): Promise<void> {
  const order = await lockOrder(tx, ctx, sub.orderId);
  const mine = new Set(sub.lines.map((l) => l.orderLineId));
  const open = order.lines.filter((l) => mine.has(l.id) && l.fulfilledQuantity < l.quantity).map((l) => ({ lineItemId: l.id, quantity: l.quantity - l.fulfilledQuantity }));
  if (!['processing', 'partially_fulfilled'].includes(order.status)) {
    throw new AppError('INVALID_TRANSITION', `the order is ${order.status}: it cannot ship`, { from: sub.status, to: 'shipped', orderStatus: order.status });
  }
  if (open.length) await fulfillLines(tx, ctx, order, { lines: open, carrier: input.carrier ?? null, trackingNumber: input.trackingNumber ?? null }, { derive: false });
  await followFulfilment(tx, ctx, sub.orderId);
}

/** partially_fulfilled while a live line is open, fulfilled once none is (cancelled sub-orders' lines do not count). */
async function followFulfilment(tx: Tx, ctx: Ctx, orderId: string, alsoCancelled: Iterable<string> = []): Promise<void> {
  const order = await lockOrder(tx, ctx, orderId);
  const cancelled = await tx.marketplaceSubOrderLine.findMany({
    where: { organizationId: ctx.organization.id, subOrder: { orderId, status: 'cancelled' } },
    select: { orderLineId: true },
  });
  const dead = new Set([...cancelled.map((l) => l.orderLineId), ...alsoCancelled]);
  const done = order.lines.filter((l) => !dead.has(l.id)).every((l) => l.fulfilledQuantity >= l.quantity);
  const to = done ? 'fulfilled' : 'partially_fulfilled';
  if (to !== order.status) await moveOrder(tx, ctx, order, { trigger: 'fulfillment', to, actor: actorRecord(ctx) });
}

/** Refund (when paid) and stock back for the sub-order's lines; the order is cancelled with its last live part. */
async function cancel(tx: Tx, ctx: Ctx, sub: SubOrderRow, order: OrderRow, reason: string | null): Promise<void> {
  const others = await tx.marketplaceSubOrder.count({ where: { organizationId: ctx.organization.id, orderId: sub.orderId, id: { not: sub.id }, status: { not: 'cancelled' } } });
  const vendorLines = await tx.marketplaceSubOrderLine.count({ where: { organizationId: ctx.organization.id, subOrder: { orderId: sub.orderId } } });
  const shopLines = order.lines.length > vendorLines;
  const mine = new Set(sub.lines.map((l) => l.orderLineId));
  if (num(order.capturedAmount) > 0) {
    const lines = order.lines.filter((l) => mine.has(l.id) && l.quantity > l.refundedQuantity).map((l) => ({ lineItemId: l.id, quantity: l.quantity - l.refundedQuantity }));
    if (lines.length) await createRefund(ctx, order.id, { lines, reason: reason ?? `sub-order ${sub.id} cancelled` });
  }
  if (!others && !shopLines && ['pending', 'confirmed', 'processing'].includes(order.status)) {
    // The whole order goes: the order's own cancellation releases the stock and voids an unpaid payment.
    await moveOrder(tx, ctx, await lockOrder(tx, ctx, order.id), { trigger: 'patch', to: 'cancelled', actor: actorRecord(ctx), reason: reason ?? 'every sub-order cancelled' });
    return;
  }
  const moves = order.lines
    .filter((l) => mine.has(l.id))
    .flatMap((l) =>
      ((l.reservations ?? []) as Array<{ warehouseId: string; quantity: number }>)
        .filter((r) => r.quantity > 0)
        .map((r) => ({ entityId: l.entityId, variantId: l.variantId, warehouseId: r.warehouseId, quantity: r.quantity, reference: `order:${order.id}` })),
    );
  if (moves.length) await portsOf(ctx.services).inventory.release(serviceCtx(ctx, tx), moves);
  await tx.orderLine.updateMany({ where: { organizationId: ctx.organization.id, id: { in: [...mine] } }, data: { reservations: [] } });
  if (order.status === 'partially_fulfilled') await followFulfilment(tx, ctx, order.id, mine);
}
