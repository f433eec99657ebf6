// The marketplace plugin: vendors sell through the shop. Vendors apply and are approved with
// their documents; a checkout of several vendors' goods creates one sub-order per vendor in the
// same transaction, with each line's commission (and the rule applied) copied; vendors work
// their sub-orders in the vendor portal; delivered sub-orders credit the vendor's ledger, from
// which payout runs pay; disputes, returns and reviews follow a delivered sub-order.
// 45 routes under /api/marketplace (README.md: routes, states and moves, permissions).
// Enable it with `plugins: [marketplace()]` in commerce.config.ts.
import { z } from 'zod';
import { definePlugin, pluginHook, type Plugin, type PluginAnalyticsModel } from '../../src/plugins/index.js';
import { pluginInput } from '../../src/plugins/types.js';
import { money as minorUnits } from '../../src/graphql/zod-args.js';
import type { TaskDefinition } from '../../src/jobs/tasks.js';
import { hasPermission } from '../../src/auth/permissions.js';
import { validationFailed } from '../../src/errors.js';
import { audienceOf, MARKETPLACE_EVENTS, vendorOf, type Ctx } from './shared.js';
import {
  addDocument,
  createVendor,
  DOCUMENT_KINDS,
  findVendor,
  getVendor,
  listDocuments,
  listVendors,
  moveVendor,
  publicVendorView,
  reviewDocument,
  updateVendor,
  VENDOR_STATUSES,
} from './vendors.js';
import { createSubOrders, getSubOrder, listSubOrders, moveSubOrder, SUB_ORDER_STATUSES } from './sub-orders.js';
import { createRule, deleteRule, listRules, updateRule } from './commission.js';
import { createPayouts, listPayouts, PAYOUT_STATUSES, retryPayout, sendPayout, vendorBalances } from './ledger.js';
import { offlinePayoutAdapter, stripePayoutAdapter, type PayoutAdapter } from './payout-adapters.js';
import { DISPUTE_STATUSES, listDisputes, moveDispute, openDispute, RESOLUTIONS, resolveDispute } from './disputes.js';
import { receiveReturn, requestReturn, shipBack } from './returns.js';
import { createReview, listReviews, moderateReview, REVIEW_STATUSES } from './reviews.js';
import { vendorPerformance } from './performance.js';
import { marketplaceAnalyticsModels } from './analytics.js';
import { checkVendorMetadata } from './catalog.js';
import { marketplaceTypes } from './graph.js';

declare module '../../src/jobs/tasks.js' {
  interface TaskTypes {
    'marketplace/payouts': { input: Record<string, never>; output: { payouts: string[]; paid: number; failed: number } };
  }
}

export interface MarketplaceOptions {
  /** Days after delivery before a sale may be paid out (default 7). */
  holdingPeriodDays?: number;
  /** Document kinds that must be approved before a vendor is (default: all three). */
  requiredDocuments?: ReadonlyArray<(typeof DOCUMENT_KINDS)[number]>;
  /** `offline` (default), `stripe` (Stripe Connect transfers with payments.stripeSecretKey) or an adapter. */
  payoutAdapter?: 'offline' | 'stripe' | PayoutAdapter;
  /** On-time shipping threshold of the performance figures (default 48 hours after the order). */
  shipWithinHours?: number;
  /** The role whose users act for the vendor they are linked to (default `vendor`). */
  vendorRole?: string;
}

export const PERMISSIONS = {
  read: 'marketplace:read',
  manage: 'marketplace:manage',
  admin: 'marketplace:admin',
  vendor: 'marketplace:vendor',
} as const;
/** A customer's own orders: what lets a customer open disputes and returns on their sub-orders. */
const CUSTOMER = 'orders:read:own';

const limit = z
  .number()
  .int()
  .min(1)
  .default(20)
  .transform((n) => Math.min(n, 100));
const offset = z.number().int().min(0).default(0);
/** Amounts: a non-negative safe integer of minor units, `MinorUnits` in GraphQL (Int is 32-bit). */
const money = minorUnits();
const reason = z.string().trim().min(1).max(1000);

export function marketplace(options: MarketplaceOptions = {}): Plugin {
  const holdingDays = options.holdingPeriodDays ?? 7;
  const required = options.requiredDocuments ?? DOCUMENT_KINDS;
  const vendorRole = options.vendorRole ?? 'vendor';
  let adapter: PayoutAdapter | null = typeof options.payoutAdapter === 'object' ? options.payoutAdapter : null;
  const payoutAdapter = (ctx: Pick<Ctx, 'config'>): PayoutAdapter => {
    if (adapter) return adapter;
    if (options.payoutAdapter === 'stripe') {
      const key = ctx.config.payments.stripeSecretKey ?? process.env.STRIPE_SECRET_KEY;
      if (!key) throw new Error('marketplace: payoutAdapter stripe needs payments.stripeSecretKey');
      return (adapter = stripePayoutAdapter(key, { timeoutMs: ctx.config.payments.timeoutMs }));
    }
    return (adapter = offlinePayoutAdapter);
  };

  const payoutTask: TaskDefinition<'marketplace/payouts'> = {
    slug: 'marketplace/payouts',
    // One run per organization at a time; a second request while one waits replaces it.
    concurrency: { key: () => 'run', exclusive: true, supersedes: true },
    retries: { attempts: 3, backoff: { type: 'exponential', delay: 10_000 } },
    handler: async (_input, job) => {
      const sys = { organization: { id: job.organizationId } as Ctx['organization'], actor: null, requestId: `job:${job.job.id}` };
      const pay = payoutAdapter(job);
      const ids = await createPayouts(job.db, sys, pay);
      // Pending payouts of earlier runs whose send was interrupted are sent too.
      const pending = await job.db.marketplacePayout.findMany({ where: { organizationId: job.organizationId, status: 'pending' }, select: { id: true } });
      let paid = 0;
      let failed = 0;
      for (const { id } of pending) {
        const row = await sendPayout(job.db, sys, pay, id);
        if (row.status === 'paid') paid += 1;
        else if (row.status === 'failed') failed += 1;
      }
      return { payouts: ids, paid, failed };
    },
  };

  const plugin = definePlugin({
    id: 'marketplace',
    version: '1.0.0',
    schema: 'plugins/marketplace/schema.prisma',
    permissions: [
      { scope: PERMISSIONS.read, description: 'Read vendors, sub-orders, commission rules, payouts, balances' },
      { scope: PERMISSIONS.manage, description: 'Create and edit vendors, documents, commission rules, sub-orders, disputes, returns; moderate reviews' },
      { scope: PERMISSIONS.admin, description: 'Approve, suspend and reinstate vendors; run and retry payouts; resolve disputes' },
      { scope: PERMISSIONS.vendor, description: 'The vendor portal (/vendor/me…), for users linked to a vendor' },
    ],
    events: [...MARKETPLACE_EVENTS],
    // A user of the vendor role linked to a vendor acts for it: actor.vendorId. One indexed read
    // per session check, only for that role's users. Every user of the role is vendor-scoped
    // (actsForVendor): unlinked, or re-linked away, it writes no catalog entity at all.
    actor: async (actor, { db }) => {
      if (actor.role !== vendorRole) return null;
      if (!actor.permissions.includes(PERMISSIONS.vendor)) return { actsForVendor: true };
      const vendor = await db.marketplaceVendor.findFirst({ where: { organizationId: actor.organizationId, userId: actor.userId }, select: { id: true } });
      return vendor ? { actsForVendor: true, vendorId: vendor.id } : { actsForVendor: true };
    },
    hooks: [
      pluginHook('checkout.beforeCommit', createSubOrders, 'marketplace:sub-orders'),
      pluginHook('catalog.beforeMetadataWrite', checkVendorMetadata, 'marketplace:vendor-metadata'),
    ],
    tasks: [payoutTask as unknown as TaskDefinition],
    analyticsModels: marketplaceAnalyticsModels as unknown as PluginAnalyticsModel[],
    routes(api) {
      const r = api.routes({ tag: 'marketplace', prefix: '/marketplace', params: { id: z.uuid(), docId: z.uuid(), reviewId: z.uuid() } });
      const { BalanceRef, CommissionRuleRef, DisputeRef, DocumentRef, PayoutRef, PayoutRunRef, PerformanceRef, ReturnRef, ReviewRef, SubOrderRef, VendorProfileRef, VendorRef } =
        marketplaceTypes();
      const vendorFields = {
        name: z.string().trim().min(1).max(200),
        email: z.email().max(320),
        description: z.string().max(5000).nullish(),
      };

      // ── vendors (admin) ──
      r.get('/vendors')
        .name('marketplaceVendors')
        .output(VendorRef)
        .summary('Vendors, newest first')
        .permission(PERMISSIONS.read)
        .paginated()
        .input({ status: z.enum(VENDOR_STATUSES).optional(), search: z.string().trim().min(1).max(200).optional(), limit, offset })
        .handler(({ input, ctx }) => listVendors(ctx, input));
      r.post('/vendors')
        .name('marketplaceVendorCreate')
        .output(VendorRef)
        .summary('Register a vendor (status pending)')
        .description('`userId` links a user of the organization (role `vendor`) who then acts for the vendor in the vendor portal.')
        .permission(PERMISSIONS.manage)
        .input({ ...vendorFields, userId: z.string().min(1).max(100).nullish(), stripeAccountId: z.string().min(1).max(100).nullish() })
        .handler(({ input, ctx }) => createVendor(ctx, input));
      r.get('/vendors/:id')
        .name('marketplaceVendor')
        .output(VendorRef)
        .summary('A vendor')
        .permission(PERMISSIONS.read)
        .handler(({ params, ctx }) => getVendor(ctx, params.id!));
      r.patch('/vendors/:id')
        .name('marketplaceVendorUpdate')
        .output(VendorRef)
        .summary('Edit a vendor')
        .permission(PERMISSIONS.manage)
        .input({
          name: vendorFields.name.optional(),
          email: vendorFields.email.optional(),
          description: vendorFields.description,
          userId: z.string().min(1).max(100).nullish(),
          stripeAccountId: z.string().min(1).max(100).nullish(),
        })
        .handler(({ params, input, ctx }) => updateVendor(ctx, params.id!, input));
      r.post('/vendors/:id/approve')
        .name('marketplaceVendorApprove')
        .output(VendorRef)
        .summary('Approve a pending vendor (every required document approved)')
        .permission(PERMISSIONS.admin)
        .handler(({ params, ctx }) => moveVendor(ctx, params.id!, 'approved', null, required, 'pending'));
      r.post('/vendors/:id/reject')
        .name('marketplaceVendorReject')
        .output(VendorRef)
        .summary('Reject a pending vendor, with a reason')
        .permission(PERMISSIONS.manage)
        .input({ reason })
        .handler(({ params, input, ctx }) => moveVendor(ctx, params.id!, 'rejected', input.reason, required));
      r.post('/vendors/:id/suspend')
        .name('marketplaceVendorSuspend')
        .output(VendorRef)
        .summary('Suspend an approved vendor')
        .permission(PERMISSIONS.admin)
        .input({ reason: reason.optional() })
        .handler(({ params, input, ctx }) => moveVendor(ctx, params.id!, 'suspended', input.reason ?? null, required));
      r.post('/vendors/:id/reinstate')
        .name('marketplaceVendorReinstate')
        .output(VendorRef)
        .summary('Reinstate a suspended vendor')
        .permission(PERMISSIONS.admin)
        .handler(({ params, ctx }) => moveVendor(ctx, params.id!, 'approved', null, [], 'suspended'));
      r.get('/vendors/:id/documents')
        .name('marketplaceVendorDocuments')
        .outputList(DocumentRef)
        .summary('A vendor’s onboarding documents')
        .permission(PERMISSIONS.read)
        .handler(({ params, ctx }) => listDocuments(ctx, params.id!));
      r.post('/vendors/:id/documents')
        .name('marketplaceVendorDocumentCreate')
        .output(DocumentRef)
        .summary('Attach a document (a media asset uploaded with POST /api/media)')
        .permission(PERMISSIONS.manage)
        .status(201)
        .input({ kind: z.enum(DOCUMENT_KINDS), mediaId: z.uuid() })
        .handler(({ params, input, ctx }) => addDocument(ctx, params.id!, input));
      r.post('/vendors/:id/documents/:docId/approve')
        .name('marketplaceVendorDocumentApprove')
        .output(DocumentRef)
        .summary('Approve a document')
        .permission(PERMISSIONS.manage)
        .handler(({ params, ctx }) => reviewDocument(ctx, params.id!, params.docId!, 'approved', null));
      r.post('/vendors/:id/documents/:docId/reject')
        .name('marketplaceVendorDocumentReject')
        .output(DocumentRef)
        .summary('Reject a document, with a reason')
        .permission(PERMISSIONS.manage)
        .input({ reason })
        .handler(({ params, input, ctx }) => reviewDocument(ctx, params.id!, params.docId!, 'rejected', input.reason));
      r.get('/vendors/:id/balance')
        .name('marketplaceVendorBalance')
        .outputList(BalanceRef)
        .summary('A vendor’s balance per currency, from the ledger')
        .permission(PERMISSIONS.read)
        .handler(async ({ params, ctx }) => {
          await findVendor(ctx.db, ctx.organization.id, params.id!);
          return vendorBalances(ctx.db, ctx.organization.id, params.id!);
        });
      r.get('/vendors/:id/performance')
        .name('marketplaceVendorPerformance')
        .output(PerformanceRef)
        .summary('Order count, on-time ship, cancellation and dispute rates, average rating over a window')
        .permission(PERMISSIONS.read)
        .input({ days: z.number().int().min(1).max(3650).default(90) })
        .handler(({ params, input, ctx }) => vendorPerformance(ctx, params.id!, input, options.shipWithinHours ?? 48));

      // ── vendor portal: everything filtered by the actor's vendorId in the SQL ──
      r.get('/vendor/me')
        .name('marketplaceVendorMe')
        .output(VendorProfileRef)
        .summary('The caller’s vendor')
        .permission(PERMISSIONS.vendor)
        .handler(async ({ ctx }) => publicVendorView(await findVendor(ctx.db, ctx.organization.id, vendorOf(ctx))));
      r.patch('/vendor/me')
        .name('marketplaceVendorMeUpdate')
        .output(VendorProfileRef)
        .summary('Edit the caller’s vendor (name, email, description)')
        .permission(PERMISSIONS.vendor)
        .input({ name: vendorFields.name.optional(), email: vendorFields.email.optional(), description: vendorFields.description })
        .handler(({ input, ctx }) => updateVendor(ctx, vendorOf(ctx), input, { portal: true }));
      r.get('/vendor/me/orders')
        .name('marketplaceVendorMeOrders')
        .output(SubOrderRef)
        .summary('The caller’s sub-orders')
        .permission(PERMISSIONS.vendor)
        .paginated()
        .input({ status: z.enum(SUB_ORDER_STATUSES).optional(), limit, offset })
        .handler(({ input, ctx }) => listSubOrders(ctx, { kind: 'vendor', vendorId: vendorOf(ctx) }, input));
      const portalMove = (action: string, to: 'confirmed' | 'shipped' | 'delivered' | 'cancelled', summary: string, shape: Record<string, z.ZodType> = {}) =>
        r
          .post(`/vendor/me/orders/:id/${action}`)
          .name(`marketplaceVendorMeOrder${action[0]!.toUpperCase()}${action.slice(1)}`)
          .output(SubOrderRef)
          .summary(summary)
          .permission(PERMISSIONS.vendor)
          .input(shape)
          .handler(({ params, input, ctx }) => moveSubOrder(ctx, { kind: 'vendor', vendorId: vendorOf(ctx) }, params.id!, { to, ...(input as object) }, { holdingDays }));
      portalMove('confirm', 'confirmed', 'Confirm a pending sub-order (its order must be paid)');
      portalMove('ship', 'shipped', 'Ship a confirmed sub-order (tracking number and carrier required)', {
        trackingNumber: z.string().trim().min(1).max(200),
        carrier: z.string().trim().min(1).max(100),
      });
      portalMove('deliver', 'delivered', 'Mark a shipped sub-order delivered (credits the vendor’s ledger)');
      portalMove('cancel', 'cancelled', 'Cancel a pending or confirmed sub-order (refund of that part, stock back)', { reason: reason.optional() });
      r.get('/vendor/me/payouts')
        .name('marketplaceVendorMePayouts')
        .output(PayoutRef)
        .summary('The caller’s payouts')
        .permission(PERMISSIONS.vendor)
        .paginated()
        .input({ status: z.enum(PAYOUT_STATUSES).optional(), limit, offset })
        .handler(({ input, ctx }) => listPayouts(ctx, { ...input, vendorId: vendorOf(ctx) }));
      r.get('/vendor/me/balance')
        .name('marketplaceVendorMeBalance')
        .outputList(BalanceRef)
        .summary('The caller’s balance per currency')
        .permission(PERMISSIONS.vendor)
        .handler(({ ctx }) => vendorBalances(ctx.db, ctx.organization.id, vendorOf(ctx)));
      r.get('/vendor/me/reviews')
        .name('marketplaceVendorMeReviews')
        .output(ReviewRef)
        .summary('Reviews of the caller’s vendor (every status)')
        .permission(PERMISSIONS.vendor)
        .paginated()
        .input({ status: z.enum(REVIEW_STATUSES).optional(), limit, offset })
        .handler(({ input, ctx }) => listReviews(ctx, vendorOf(ctx), input, true));

      // ── commission rules ──
      const ruleFields = {
        name: z.string().trim().min(1).max(200),
        vendorId: z.uuid().nullish(),
        categoryId: z.uuid().nullish(),
        rateBps: z.number().int().min(0).max(10_000),
        fixedAmount: money,
        validFrom: z.coerce.date().nullish(),
        validUntil: z.coerce.date().nullish(),
      };
      r.get('/commission-rules')
        .name('marketplaceCommissionRules')
        .output(CommissionRuleRef)
        .summary('Commission rules, newest first')
        .permission(PERMISSIONS.read)
        .paginated()
        .input({ vendorId: z.uuid().optional(), limit, offset })
        .handler(({ input, ctx }) => listRules(ctx, input));
      r.post('/commission-rules')
        .name('marketplaceCommissionRuleCreate')
        .output(CommissionRuleRef)
        .summary('Create a commission rule (basis points and/or fixed per line)')
        .permission(PERMISSIONS.manage)
        .input({ ...ruleFields, rateBps: ruleFields.rateBps.default(0), fixedAmount: ruleFields.fixedAmount.default(0) })
        .handler(({ input, ctx }) => createRule(ctx, input));
      r.patch('/commission-rules/:id')
        .name('marketplaceCommissionRuleUpdate')
        .output(CommissionRuleRef)
        .summary('Edit a commission rule (past sub-orders keep their snapshot)')
        .permission(PERMISSIONS.manage)
        .input({
          name: ruleFields.name.optional(),
          vendorId: ruleFields.vendorId,
          categoryId: ruleFields.categoryId,
          rateBps: ruleFields.rateBps.optional(),
          fixedAmount: ruleFields.fixedAmount.optional(),
          validFrom: ruleFields.validFrom,
          validUntil: ruleFields.validUntil,
        })
        .handler(({ params, input, ctx }) => updateRule(ctx, params.id!, input));
      r.delete('/commission-rules/:id')
        .name('marketplaceCommissionRuleDelete')
        .output(CommissionRuleRef)
        .summary('Delete a commission rule')
        .permission(PERMISSIONS.manage)
        .handler(({ params, ctx }) => deleteRule(ctx, params.id!));

      // ── payouts ──
      r.get('/payouts')
        .name('marketplacePayouts')
        .output(PayoutRef)
        .summary('Payouts, newest first')
        .permission(PERMISSIONS.read)
        .paginated()
        .input({ vendorId: z.uuid().optional(), status: z.enum(PAYOUT_STATUSES).optional(), limit, offset })
        .handler(({ input, ctx }) => listPayouts(ctx, input));
      r.post('/payouts/run')
        .name('marketplacePayoutsRun')
        .output(PayoutRunRef)
        .summary('Pay every approved vendor its available balance (as a job)')
        .description(
          'Enqueues the `marketplace/payouts` job: one payout per vendor and currency with a positive available balance (credits past the holding period less debits). Runs never pay the same money twice, even concurrently. 202 with the job id.',
        )
        .permission(PERMISSIONS.admin)
        .status(202)
        .handler(async ({ ctx, db }) => {
          const job = await ctx.services.jobs.enqueue({ task: 'marketplace/payouts', input: {}, organizationId: ctx.organization.id }, db as never);
          return { jobId: job.id, status: job.status };
        });
      r.post('/payouts/:id/retry')
        .name('marketplacePayoutRetry')
        .output(PayoutRef)
        .summary('Send a failed payout again (same idempotency key: never paid twice)')
        .permission(PERMISSIONS.admin)
        .handler(({ params, ctx }) => retryPayout(ctx, payoutAdapter(ctx), params.id!));

      // ── sub-orders (admin) ──
      r.get('/sub-orders')
        .name('marketplaceSubOrders')
        .output(SubOrderRef)
        .summary('Sub-orders, newest first')
        .permission(PERMISSIONS.read)
        .paginated()
        .input({ status: z.enum(SUB_ORDER_STATUSES).optional(), vendorId: z.uuid().optional(), orderId: z.uuid().optional(), limit, offset })
        .handler(({ input, ctx }) => listSubOrders(ctx, { kind: 'admin' }, input));
      r.get('/sub-orders/:id')
        .name('marketplaceSubOrder')
        .output(SubOrderRef)
        .summary('A sub-order with its lines and commission snapshot')
        .permission(PERMISSIONS.read)
        .handler(({ params, ctx }) => getSubOrder(ctx, { kind: 'admin' }, params.id!));
      r.patch('/sub-orders/:id/status')
        .name('marketplaceSubOrderStatusUpdate')
        .output(SubOrderRef)
        .summary('Move a sub-order (same state table as the vendor portal)')
        .permission(PERMISSIONS.manage)
        .input({
          status: z.enum(SUB_ORDER_STATUSES),
          trackingNumber: z.string().trim().min(1).max(200).nullish(),
          carrier: z.string().trim().min(1).max(100).nullish(),
          reason: reason.nullish(),
        })
        .handler(({ params, input, ctx }) => {
          if (input.status === 'shipped' && (!input.trackingNumber || !input.carrier)) {
            throw validationFailed(
              [input.trackingNumber ? null : 'trackingNumber', input.carrier ? null : 'carrier']
                .filter((f) => f !== null)
                .map((field) => ({ field, message: 'is required to ship' })),
            );
          }
          return moveSubOrder(
            ctx,
            { kind: 'admin' },
            params.id!,
            { to: input.status, trackingNumber: input.trackingNumber, carrier: input.carrier, reason: input.reason },
            { holdingDays },
          );
        });

      // ── disputes ──
      const parties = [PERMISSIONS.manage, PERMISSIONS.vendor, CUSTOMER];
      r.post('/disputes')
        .name('marketplaceDisputeCreate')
        .output(DisputeRef)
        .summary('Open a dispute on a sub-order (its customer or an admin)')
        .anyPermission([PERMISSIONS.manage, CUSTOMER])
        .input({ subOrderId: z.uuid(), reason })
        .handler(({ input, ctx }) => openDispute(ctx, audienceOf(ctx, PERMISSIONS.manage), input));
      r.get('/disputes')
        .name('marketplaceDisputes')
        .output(DisputeRef)
        .summary('Disputes (admins all, vendors and customers their own)')
        .anyPermission([PERMISSIONS.read, PERMISSIONS.vendor, CUSTOMER])
        .paginated()
        .input({ status: z.enum(DISPUTE_STATUSES).optional(), subOrderId: z.uuid().optional(), limit, offset })
        .handler(({ input, ctx }) => listDisputes(ctx, audienceOf(ctx, PERMISSIONS.read), input));
      r.post('/disputes/:id/respond')
        .name('marketplaceDisputeRespond')
        .output(DisputeRef)
        .summary('The vendor’s response')
        .permission(PERMISSIONS.vendor)
        .input({ response: z.string().trim().min(1).max(5000) })
        .handler(({ params, input, ctx }) => moveDispute(ctx, { kind: 'vendor', vendorId: vendorOf(ctx) }, params.id!, 'responded', input.response));
      r.post('/disputes/:id/escalate')
        .name('marketplaceDisputeEscalate')
        .output(DisputeRef)
        .summary('Escalate a dispute to the marketplace (any party)')
        .anyPermission(parties)
        .handler(({ params, ctx }) => moveDispute(ctx, audienceOf(ctx, PERMISSIONS.manage), params.id!, 'escalated', null));
      r.post('/disputes/:id/resolve')
        .name('marketplaceDisputeResolve')
        .output(DisputeRef)
        .summary('Resolve: refund_customer, release_to_vendor or split (books the ledger)')
        .permission(PERMISSIONS.admin)
        .input({ resolution: z.enum(RESOLUTIONS), refundAmount: money.min(1).optional() })
        .handler(({ params, input, ctx }) => resolveDispute(ctx, params.id!, input));

      // ── returns ──
      r.post('/returns')
        .name('marketplaceReturnCreate')
        .output(ReturnRef)
        .summary('Request a return of a delivered sub-order’s lines')
        .anyPermission([PERMISSIONS.manage, CUSTOMER])
        .input({
          subOrderId: z.uuid(),
          reason,
          lines: z
            .array(
              pluginInput(
                'MarketplaceReturnLineInput',
                'A quantity of one line of the sub-order to return',
                z.object({ subOrderLineId: z.uuid(), quantity: z.number().int().min(1).max(10_000) }).strict(),
              ),
            )
            .min(1)
            .max(100),
        })
        .handler(({ input, ctx }) => requestReturn(ctx, audienceOf(ctx, PERMISSIONS.manage), input));
      r.post('/returns/:id/ship-back')
        .name('marketplaceReturnShipBack')
        .output(ReturnRef)
        .summary('The customer ships the goods back (tracking number)')
        .anyPermission([PERMISSIONS.manage, CUSTOMER])
        .input({ trackingNumber: z.string().trim().min(1).max(200), carrier: z.string().trim().min(1).max(100).nullish() })
        .handler(({ params, input, ctx }) => shipBack(ctx, audienceOf(ctx, PERMISSIONS.manage), params.id!, input));
      r.post('/returns/:id/receive')
        .name('marketplaceReturnReceive')
        .output(ReturnRef)
        .summary('Receive a return: restock, refund, ledger debit')
        .anyPermission([PERMISSIONS.manage, PERMISSIONS.vendor])
        .handler(({ params, ctx }) => receiveReturn(ctx, audienceOf(ctx, PERMISSIONS.manage), params.id!));

      // ── reviews ──
      r.post('/vendors/:id/reviews')
        .name('marketplaceVendorReviewCreate')
        .output(ReviewRef)
        .summary('Review a vendor (once per delivered sub-order)')
        .permission(CUSTOMER)
        .status(201)
        .input({ subOrderId: z.uuid(), rating: z.number().int().min(1).max(5), text: z.string().max(2000).nullish() })
        .handler(({ params, input, ctx }) => createReview(ctx, params.id!, input));
      r.get('/vendors/:id/reviews')
        .name('marketplaceVendorReviews')
        .output(ReviewRef)
        .summary('Published reviews of a vendor (moderators: every status)')
        .paginated()
        .input({ status: z.enum(REVIEW_STATUSES).optional(), limit, offset })
        .handler(({ params, input, ctx }) => listReviews(ctx, params.id!, input, !!ctx.actor && hasPermission(ctx.actor.permissions, PERMISSIONS.read)));
      r.patch('/vendors/:id/reviews/:reviewId')
        .name('marketplaceVendorReviewUpdate')
        .output(ReviewRef)
        .summary('Moderate a review: publish or hide')
        .permission(PERMISSIONS.manage)
        .input({ status: z.enum(['published', 'hidden']) })
        .handler(({ params, input, ctx }) => moderateReview(ctx, params.id!, params.reviewId!, input.status));
    },
  });

  // The vendor role (portal permission) joins the configured roles unless the user declared it.
  const apply = (config: Parameters<Plugin>[0]) => {
    const next = plugin(config);
    const roles = (next.auth as { roles?: Record<string, string[]> } | undefined)?.roles ?? {};
    // Catalog create/update: a vendor actor writes only entities carrying its vendorId (the
    // catalog's entity lock filters by it; creation stamps it).
    return { ...next, auth: { ...next.auth, roles: { [vendorRole]: [PERMISSIONS.vendor, 'catalog:read', 'catalog:create', 'catalog:update'], ...roles } } };
  };
  return Object.assign(apply, { manifest: plugin.manifest });
}
