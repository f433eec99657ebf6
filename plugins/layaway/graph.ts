// The layaway plugin's GraphQL types: a plan with its lines and payment ledger, field by field as
// planView returns it (REST bodies keep their shape). Lines and payments of plans listed
// without them are loaded per page in one statement each; `order` (the order a completed plan
// became) is the core Order, graph-only and only for callers who may read orders.
import type { RequestContext } from '../../src/context.js';
import { defineEnum } from '../../src/graphql/enums.js';
import { batchLoader, graphOnly, groupBy } from '../../src/graphql/loaders.js';
import { OrderRef } from '../../src/modules/orders/types.js';
import { loadOrder } from '../../src/plugins/relations.js';
import { pluginObject, type FieldSpec } from '../../src/plugins/types.js';
import { FORFEIT_POLICIES, STATUSES, type PlanView } from './service.js';

type GraphCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'loaders'>;
type Line = NonNullable<PlanView['lines']>[number];
type Payment = NonNullable<PlanView['payments']>[number];

async function linesByPlan(ctx: GraphCtx, ids: string[]): Promise<Map<string, Line[]>> {
  const rows = await ctx.db.layawayLine.findMany({ where: { organizationId: ctx.organization.id, planId: { in: ids } }, orderBy: [{ planId: 'asc' }, { position: 'asc' }] });
  return groupBy(
    rows,
    (l) => l.planId,
    (l) => ({
      id: l.id,
      entityId: l.entityId,
      variantId: l.variantId,
      sku: l.sku,
      title: l.title,
      quantity: l.quantity,
      unitPrice: Number(l.unitPrice),
      totalPrice: Number(l.totalPrice),
      reservations: l.reservations,
    }),
  );
}

async function paymentsByPlan(ctx: GraphCtx, ids: string[]): Promise<Map<string, Payment[]>> {
  const rows = await ctx.db.layawayPayment.findMany({ where: { organizationId: ctx.organization.id, planId: { in: ids } }, orderBy: [{ planId: 'asc' }, { createdAt: 'asc' }] });
  return groupBy(
    rows,
    (p) => p.planId,
    (p) => ({ id: p.id, amount: Number(p.amount), method: p.method, reference: p.reference, idempotencyKey: p.idempotencyKey, createdAt: p.createdAt.toISOString() }),
  );
}

let declared: ReturnType<typeof declare> | undefined;

/** The plan type, declared on first use: only an enabled plugin adds types to the schema. */
export function layawayTypes() {
  declared ??= declare();
  return declared;
}

function declare() {
  const StatusEnum = defineEnum('LayawayStatus', STATUSES, 'active until paid in full (completed, an order is created) or forfeited.');
  const PolicyEnum = defineEnum('LayawayForfeitPolicy', FORFEIT_POLICIES, 'What the shop keeps when a plan is forfeited: the deposit, everything paid, or nothing.');
  const money = (description: string) => ({ type: 'MinorUnits', description }) as const;

  const InstallmentRef = pluginObject<{ dueAt: string; amount: number }>('LayawayInstallment', 'A scheduled installment.', { dueAt: 'DateTime', amount: money('Due') });
  const ReservationRef = pluginObject<{ warehouseId: string; quantity: number }>('LayawayReservation', 'Stock of a line reserved in a warehouse.', {
    warehouseId: 'UUID',
    quantity: 'Int',
  });
  const LineRef = pluginObject<Line>('LayawayLine', 'A line of a plan, priced when it was opened.', {
    id: 'UUID',
    entityId: 'UUID',
    variantId: 'UUID?',
    sku: 'String',
    title: 'String',
    quantity: 'Int',
    unitPrice: money('Unit price from the price list'),
    totalPrice: money('unitPrice × quantity'),
    reservations: { type: ReservationRef, list: true, description: 'Where its stock is reserved' },
  });
  const PaymentRef = pluginObject<Payment>('LayawayPayment', 'A payment recorded on a plan (the deposit first).', {
    id: 'UUID',
    amount: money('Paid'),
    method: { type: 'String', description: 'cash, card, … as the till records it' },
    reference: 'String?',
    idempotencyKey: 'String',
    createdAt: 'DateTime',
  });
  const PlanRef = pluginObject<PlanView>('LayawayPlan', 'A layaway plan: goods reserved while the customer pays in installments.', {
    id: 'UUID',
    status: StatusEnum,
    customerEmail: 'String',
    currency: 'String',
    total: money('Value of the goods'),
    depositAmount: money('Paid at opening'),
    paidAmount: money('Paid so far'),
    balance: money('Still to pay: total − paidAmount'),
    installments: { type: InstallmentRef, list: true, description: 'The schedule agreed at opening' },
    forfeitPolicy: PolicyEnum,
    retainedAmount: { type: 'MinorUnits?', description: 'Kept by the shop when forfeited' },
    refundDue: { type: 'MinorUnits?', description: 'Owed back to the customer when forfeited' },
    forfeitReason: 'String?',
    expiresAt: 'DateTime',
    orderId: { type: 'UUID?', description: 'The order the completed plan became' },
    completedAt: 'DateTime?',
    forfeitedAt: 'DateTime?',
    createdAt: 'DateTime',
    lines: {
      type: LineRef,
      list: true,
      resolve: (p: PlanView, _a: unknown, ctx: GraphCtx) =>
        p.lines ??
        batchLoader<Line[]>(
          ctx,
          'layaway.lines',
          (ids) => linesByPlan(ctx, ids),
          () => [],
        ).load(p.id),
    },
    payments: {
      type: PaymentRef,
      list: true,
      description: 'Payments, oldest first',
      resolve: (p: PlanView, _a: unknown, ctx: GraphCtx) =>
        p.payments ??
        batchLoader<Payment[]>(
          ctx,
          'layaway.payments',
          (ids) => paymentsByPlan(ctx, ids),
          () => [],
        ).load(p.id),
    },
    order: {
      type: OrderRef,
      nullable: true,
      description: 'The order the completed plan became (null before, or for callers without orders:read)',
      resolve: (p: PlanView, _a: unknown, ctx: GraphCtx) => loadOrder(ctx, p.orderId, null),
    },
  } as Record<string, FieldSpec<PlanView>>);
  graphOnly('LayawayPlan', 'order');
  return { PlanRef };
}
