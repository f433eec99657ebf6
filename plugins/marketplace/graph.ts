// The marketplace's GraphQL types: what every route answers, field by field (the same plain
// objects the services return, so REST bodies keep their shape), and the relations the graph
// resolves when selected, batched per request like the core's (src/graphql/loaders.ts):
// SubOrder.order (the core Order), SubOrder.vendor, Payout.vendor, Vendor.products (core
// CatalogEntity). Relations are graph-only: REST bodies and statement counts stay as they were.
//
// Who sees a relation: the order behind a sub-order is the customer's whole order (address,
// other vendors' lines), so it resolves only for callers who may read that order (orders:read,
// or orders:read:own for their own); otherwise null. A vendor resolves for marketplace staff
// (read, manage, admin) and for the vendor itself; its Stripe account and linked user only for staff.
import type { RequestContext } from '../../src/context.js';
import { hasPermission } from '../../src/auth/permissions.js';
import { defineEnum } from '../../src/graphql/enums.js';
import { batchLoader, graphOnly, groupBy } from '../../src/graphql/loaders.js';
import { pluginObject, type FieldSpec } from '../../src/plugins/types.js';
import { loadOrder } from '../../src/plugins/relations.js';
import { OrderRef } from '../../src/modules/orders/types.js';
import { CatalogEntityRef } from '../../src/modules/catalog/types.js';
import { entityView, type CatalogEntityView } from '../../src/modules/catalog/views.js';
import { seesUnpublished } from '../../src/modules/catalog/shared.js';
import { JOB_STATUSES } from '../../src/jobs/store.js';
import { DOCUMENT_KINDS, DOCUMENT_STATUSES, VENDOR_STATUSES, vendorView, publicVendorView, documentView } from './vendors.js';
import { SUB_ORDER_STATUSES, type SubOrderView } from './sub-orders.js';
import { PAYOUT_STATUSES, payoutView, type BalanceView } from './ledger.js';
import { DISPUTE_STATUSES, RESOLUTIONS, disputeView } from './disputes.js';
import { RETURN_STATUSES, returnView } from './returns.js';
import { REVIEW_STATUSES, reviewView } from './reviews.js';
import { ruleView } from './commission.js';
import type { vendorPerformance } from './performance.js';

type GraphCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'loaders'>;
type Vendor = ReturnType<typeof vendorView>;
type SubOrderLine = NonNullable<SubOrderView['lines']>[number];

const canRead = (ctx: GraphCtx, permission: string) => hasPermission(ctx.actor?.permissions ?? [], permission);
/** Marketplace staff (read, manage or admin): they see a vendor's Stripe account and linked user, as the admin routes always showed them. */
const isStaff = (ctx: GraphCtx) => ['marketplace:read', 'marketplace:manage', 'marketplace:admin'].some((p) => canRead(ctx, p));

/** Entities of several vendors in one statement (a JSON path filter per vendor, OR-ed). */
async function productsByVendor(ctx: GraphCtx, vendorIds: string[]): Promise<Map<string, CatalogEntityView[]>> {
  const rows = await ctx.db.catalogEntity.findMany({
    where: {
      organizationId: ctx.organization.id,
      ...(seesUnpublished(ctx) ? {} : { status: 'active' }),
      OR: vendorIds.map((id) => ({ metadata: { path: ['vendorId'], equals: id } })),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return groupBy(
    rows,
    (row) => String((row.metadata as { vendorId?: unknown }).vendorId),
    (row) => entityView(row),
  );
}

/** The lines of sub-orders listed without them: one statement per page. */
async function linesBySubOrder(ctx: GraphCtx, ids: string[]): Promise<Map<string, SubOrderLine[]>> {
  const rows = await ctx.db.marketplaceSubOrderLine.findMany({ where: { subOrderId: { in: ids } }, orderBy: [{ subOrderId: 'asc' }, { orderLineId: 'asc' }] });
  const num = (v: bigint | number) => Number(v);
  return groupBy(
    rows,
    (l) => l.subOrderId,
    (l) =>
      ({
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
      }) as SubOrderLine,
  );
}

function loadVendor(ctx: GraphCtx, id: string): Promise<Vendor | null> {
  // A vendor actor sees only itself; marketplace readers any vendor of the organization.
  if (!isStaff(ctx) && ctx.actor?.vendorId !== id) return Promise.resolve(null);
  return batchLoader<Vendor | null>(
    ctx,
    'marketplace.vendorById',
    async (ids) => new Map((await ctx.db.marketplaceVendor.findMany({ where: { organizationId: ctx.organization.id, id: { in: ids } } })).map((v) => [v.id, vendorView(v)])),
    () => null,
  ).load(id);
}

let declared: ReturnType<typeof declare> | undefined;

/** The marketplace's types, declared on first use: only an enabled plugin adds types to the schema. */
export function marketplaceTypes() {
  declared ??= declare();
  return declared;
}

function declare() {
  // ── enums: the stored strings themselves, so REST bodies are unchanged ──
  const VendorStatusEnum = defineEnum('MarketplaceVendorStatus', VENDOR_STATUSES, 'pending → approved | rejected; approved ↔ suspended.');
  const DocumentKindEnum = defineEnum('MarketplaceDocumentKind', DOCUMENT_KINDS, 'Kind of a vendor onboarding document.');
  const DocumentStatusEnum = defineEnum('MarketplaceDocumentStatus', DOCUMENT_STATUSES, 'Review state of a vendor document.');
  const SubOrderStatusEnum = defineEnum('MarketplaceSubOrderStatus', SUB_ORDER_STATUSES, 'pending → confirmed → shipped → delivered; pending or confirmed → cancelled.');
  const PayoutStatusEnum = defineEnum('MarketplacePayoutStatus', PAYOUT_STATUSES, 'pending until sent; failed payouts can be retried.');
  const DisputeStatusEnum = defineEnum('MarketplaceDisputeStatus', DISPUTE_STATUSES, 'open → responded → escalated → resolved.');
  const DisputeResolutionEnum = defineEnum('MarketplaceDisputeResolution', RESOLUTIONS, 'How a dispute was resolved.');
  const ReturnStatusEnum = defineEnum('MarketplaceReturnStatus', RETURN_STATUSES, 'requested → shipped_back → received.');
  const ReviewStatusEnum = defineEnum('MarketplaceReviewStatus', REVIEW_STATUSES, 'Moderation state of a review.');
  const JobStatusEnum = defineEnum('JobStatus', JOB_STATUSES, 'State of a job in the job table.');

  const money = (description: string) => ({ type: 'MinorUnits', description }) as const;

  // ── vendors ──
  const vendorFields = {
    id: 'UUID',
    name: 'String',
    email: 'String',
    description: 'String?',
    status: VendorStatusEnum,
    statusReason: { type: 'String?', description: 'Why it was rejected or suspended' },
    approvedAt: 'DateTime?',
    createdAt: 'DateTime',
    updatedAt: 'DateTime',
  } as const;

  const VendorRef = pluginObject<Vendor>('MarketplaceVendor', 'A vendor selling through the shop.', {
    ...vendorFields,
    userId: {
      type: 'String?',
      description: 'The user (role vendor) acting for the vendor in the portal; null for callers who are not marketplace staff',
      resolve: (v, _a, ctx: GraphCtx) => (isStaff(ctx) ? v.userId : null),
    },
    stripeAccountId: {
      type: 'String?',
      description: 'Stripe Connect account payouts go to; null for callers who are not marketplace staff',
      resolve: (v, _a, ctx: GraphCtx) => (isStaff(ctx) ? v.stripeAccountId : null),
    },
    products: {
      type: CatalogEntityRef,
      list: true,
      description: 'The vendor’s catalog entities (metadata.vendorId), newest first, as the caller may see them (active only without catalog:read:unpublished)',
      resolve: (v: Vendor, _a: unknown, ctx: GraphCtx) =>
        batchLoader<CatalogEntityView[]>(
          ctx,
          'marketplace.vendorProducts',
          (ids) => productsByVendor(ctx, ids),
          () => [],
        ).load(v.id),
    },
  } as Record<string, FieldSpec<Vendor>>);
  graphOnly('MarketplaceVendor', 'products');

  const VendorProfileRef = pluginObject<ReturnType<typeof publicVendorView>>(
    'MarketplaceVendorProfile',
    'A vendor as it sees itself in the portal (no Stripe account, no linked user).',
    vendorFields,
  );

  const DocumentRef = pluginObject<ReturnType<typeof documentView>>('MarketplaceVendorDocument', 'An onboarding document: a media asset reviewed by the marketplace.', {
    id: 'UUID',
    vendorId: 'UUID',
    kind: DocumentKindEnum,
    mediaId: 'UUID',
    status: DocumentStatusEnum,
    reason: { type: 'String?', description: 'Why it was rejected' },
    reviewedAt: 'DateTime?',
    createdAt: 'DateTime',
  });

  const BalanceRef = pluginObject<BalanceView>(
    'MarketplaceVendorBalance',
    'A vendor’s balance in one currency, from the ledger: balance = totalCredits − totalDebits = available + pending.',
    {
      currency: 'String',
      totalCredits: money('Credits booked'),
      totalDebits: money('Debits booked (payouts, refunds, disputes)'),
      balance: money('Credits less debits'),
      available: money('Payable now (credits past the holding period, less debits)'),
      pending: money('Credits still in the holding period'),
    },
  );

  const PerformanceRef = pluginObject<Awaited<ReturnType<typeof vendorPerformance>>>(
    'MarketplaceVendorPerformance',
    'A vendor’s figures over a window of days. Rates are fractions (0–1), null when there is nothing to divide by.',
    {
      vendorId: 'UUID',
      windowDays: 'Int',
      since: 'DateTime',
      orderCount: 'Int',
      onTimeShipRate: { type: 'Float?', description: 'Shipped within shipWithinHours of the order, of shipped sub-orders' },
      cancellationRate: 'Float?',
      disputeRate: 'Float?',
      averageRating: { type: 'Float?', description: 'Published reviews in the window, 1–5' },
      reviewCount: 'Int',
      shipWithinHours: 'Int',
    },
  );

  // ── commission rules ──
  const CommissionRuleRef = pluginObject<ReturnType<typeof ruleView>>(
    'MarketplaceCommissionRule',
    'A commission rule: rateBps of each line total plus fixedAmount per line, for a vendor and/or category (null: any).',
    {
      id: 'UUID',
      name: 'String',
      vendorId: 'UUID?',
      categoryId: 'UUID?',
      rateBps: { type: 'Int', description: 'Basis points (1/100 %) of the line total' },
      fixedAmount: money('Per line, minor units'),
      validFrom: 'DateTime?',
      validUntil: 'DateTime?',
      createdAt: 'DateTime',
      updatedAt: 'DateTime',
    },
  );

  // ── sub-orders ──
  const SubOrderLineRef = pluginObject<SubOrderLine>('MarketplaceSubOrderLine', 'A line of a sub-order with the commission taken on it.', {
    id: 'UUID',
    orderLineId: 'UUID',
    entityId: 'UUID',
    variantId: 'UUID?',
    sku: 'String',
    title: 'String',
    quantity: 'Int',
    unitPrice: money('Unit price'),
    total: money('Line total after its discount share, tax included'),
    commissionAmount: money('Commission on this line'),
    commissionRule: { type: CommissionRuleRef, nullable: true, description: 'The rule applied, as it was when the order was placed (null: none matched)' },
  });

  const SubOrderRef = pluginObject<SubOrderView>(
    'MarketplaceSubOrder',
    'One vendor’s part of an order: its lines, totals and commission, worked by the vendor.',
    () =>
      ({
        id: 'UUID',
        orderId: 'UUID',
        vendorId: 'UUID',
        customerId: 'UUID?',
        status: SubOrderStatusEnum,
        currency: 'String',
        subtotal: money('Lines before discounts'),
        discountTotal: money('Discounts on its lines'),
        taxTotal: money('Tax on its lines'),
        total: money('What the customer paid for this part'),
        commissionTotal: money('The marketplace’s commission'),
        netAmount: money('The vendor’s share: total − commissionTotal'),
        trackingNumber: 'String?',
        carrier: 'String?',
        cancelReason: 'String?',
        confirmedAt: 'DateTime?',
        shippedAt: 'DateTime?',
        deliveredAt: 'DateTime?',
        cancelledAt: 'DateTime?',
        createdAt: 'DateTime',
        updatedAt: 'DateTime',
        lines: {
          type: SubOrderLineRef,
          list: true,
          description: 'Its lines, with the commission snapshot',
          resolve: (s: SubOrderView, _a: unknown, ctx: GraphCtx) =>
            s.lines ??
            batchLoader<SubOrderLine[]>(
              ctx,
              'marketplace.subOrderLines',
              (ids) => linesBySubOrder(ctx, ids),
              () => [],
            ).load(s.id),
        },
        order: {
          type: OrderRef,
          nullable: true,
          description: 'The order this is part of (null unless the caller may read that order: orders:read, or orders:read:own for its customer)',
          resolve: (s: SubOrderView, _a: unknown, ctx: GraphCtx) => loadOrder(ctx, s.orderId, s.customerId),
        },
        vendor: {
          type: VendorRef,
          nullable: true,
          description: 'The vendor (null for callers who are neither marketplace readers nor that vendor)',
          resolve: (s: SubOrderView, _a: unknown, ctx: GraphCtx) => loadVendor(ctx, s.vendorId),
        },
      }) as Record<string, FieldSpec<SubOrderView>>,
  );
  graphOnly('MarketplaceSubOrder', 'order', 'vendor');

  // ── payouts ──
  type Payout = ReturnType<typeof payoutView>;
  const PayoutRef = pluginObject<Payout>('MarketplacePayout', 'A payout of a vendor’s available balance in one currency.', {
    id: 'UUID',
    vendorId: 'UUID',
    amount: money('Paid out'),
    currency: 'String',
    status: PayoutStatusEnum,
    adapter: { type: 'String', description: 'Payout adapter: offline, stripe or a custom one' },
    idempotencyKey: { type: 'String', description: 'Sent to the provider: a retry never pays twice' },
    externalId: { type: 'String?', description: 'The provider’s transfer id' },
    failureReason: 'String?',
    attempts: 'Int',
    paidAt: 'DateTime?',
    createdAt: 'DateTime',
    vendor: {
      type: VendorRef,
      nullable: true,
      description: 'The vendor paid (null for callers who are neither marketplace readers nor that vendor)',
      resolve: (p: Payout, _a: unknown, ctx: GraphCtx) => loadVendor(ctx, p.vendorId),
    },
  } as Record<string, FieldSpec<Payout>>);
  graphOnly('MarketplacePayout', 'vendor');

  const PayoutRunRef = pluginObject<{ jobId: string; status: string }>('MarketplacePayoutRun', 'A payout run, queued as the marketplace/payouts job.', {
    jobId: 'UUID',
    status: JobStatusEnum,
  });

  // ── disputes, returns, reviews ──
  const DisputeRef = pluginObject<ReturnType<typeof disputeView>>(
    'MarketplaceDispute',
    'A dispute on a sub-order, between its customer and its vendor, resolved by the marketplace.',
    {
      id: 'UUID',
      subOrderId: 'UUID',
      vendorId: 'UUID',
      customerId: 'UUID?',
      status: DisputeStatusEnum,
      reason: 'String',
      response: { type: 'String?', description: 'The vendor’s response' },
      resolution: { type: DisputeResolutionEnum, nullable: true },
      refundAmount: { type: 'MinorUnits?', description: 'Refunded to the customer on resolution' },
      resolvedAt: 'DateTime?',
      createdAt: 'DateTime',
      updatedAt: 'DateTime',
    },
  );

  const ReturnLineRef = pluginObject<{ subOrderLineId: string; quantity: number }>('MarketplaceReturnLine', 'Units of a sub-order line returned.', {
    subOrderLineId: 'UUID',
    quantity: 'Int',
  });

  const ReturnRef = pluginObject<ReturnType<typeof returnView>>('MarketplaceReturn', 'A return of a delivered sub-order’s lines.', {
    id: 'UUID',
    subOrderId: 'UUID',
    vendorId: 'UUID',
    customerId: 'UUID?',
    status: ReturnStatusEnum,
    reason: 'String',
    lines: { type: ReturnLineRef, list: true },
    refundAmount: money('Refunded when received'),
    trackingNumber: 'String?',
    carrier: 'String?',
    receivedAt: 'DateTime?',
    createdAt: 'DateTime',
    updatedAt: 'DateTime',
  });

  const ReviewRef = pluginObject<ReturnType<typeof reviewView>>('MarketplaceReview', 'A customer’s review of a vendor, one per delivered sub-order.', {
    id: 'UUID',
    vendorId: 'UUID',
    subOrderId: 'UUID',
    rating: { type: 'Int', description: '1 to 5' },
    text: 'String?',
    status: ReviewStatusEnum,
    createdAt: 'DateTime',
    updatedAt: 'DateTime',
  });
  return { VendorRef, VendorProfileRef, DocumentRef, BalanceRef, PerformanceRef, CommissionRuleRef, SubOrderRef, PayoutRef, PayoutRunRef, DisputeRef, ReturnRef, ReviewRef };
}
