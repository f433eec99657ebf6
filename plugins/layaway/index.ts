// The layaway plugin: a customer's goods are held (stock reserved) while they pay in
// installments; paid in full, the plan becomes an order; forfeited or expired, the stock goes
// back on sale. Routes under /api/layaways (see README.md for the states and moves).
// Enable it with `plugins: [layaway()]` in commerce.config.ts.
import { z } from 'zod';
import { definePlugin, type Plugin } from '../../src/plugins/index.js';
import { pluginInput } from '../../src/plugins/types.js';
import { money as minorUnits } from '../../src/graphql/zod-args.js';
import { validationFailed } from '../../src/errors.js';
import type { TaskDefinition } from '../../src/jobs/tasks.js';
import { layawayTypes } from './graph.js';
import { createPlan, forfeitExpired, forfeitPlan, FORFEIT_POLICIES, getPlan, listPlans, recordPayment, STATUSES } from './service.js';

declare module '../../src/jobs/tasks.js' {
  interface TaskTypes {
    'layaway/expire': { input: { limit?: number }; output: { forfeited: string[] } };
  }
}

export interface LayawayOptions {
  /** Longest plan a clerk may open, in days (default 180). */
  maxDurationDays?: number;
}

/** Amounts: a non-negative safe integer of minor units, `MinorUnits` in GraphQL (Int is 32-bit). */
const money = minorUnits();

export function layaway(options: LayawayOptions = {}): Plugin {
  const maxDays = options.maxDurationDays ?? 180;
  const expire: TaskDefinition<'layaway/expire'> = {
    slug: 'layaway/expire',
    // One sweep per organization at a time; the plan row lock guards each forfeiture anyway.
    concurrency: { key: () => 'sweep', supersedes: true },
    retries: { attempts: 3, backoff: { type: 'exponential', delay: 5_000 } },
    handler: async (input, ctx) =>
      forfeitExpired(
        { organization: { id: ctx.organizationId } as never, actor: null, requestId: `job:${ctx.job.id}`, db: ctx.db, services: ctx.services, logger: ctx.logger },
        input.limit ?? 100,
      ),
  };

  return definePlugin({
    id: 'layaway',
    version: '1.0.0',
    schema: 'plugins/layaway/schema.prisma',
    permissions: [
      { scope: 'layaway:operate', description: 'Open plans, read them and record installments' },
      { scope: 'layaway:manage', description: 'Forfeit plans' },
    ],
    routes(ctx) {
      const r = ctx.routes({ tag: 'layaways', prefix: '/layaways', params: { id: z.uuid() } });
      const { PlanRef } = layawayTypes();
      // The items of `lines` and `installments` as GraphQL input objects (they were JSONObject).
      const LineInput = pluginInput(
        'LayawayLineInput',
        'A line to reserve: a catalog entity (and its variant when it has several) and a quantity',
        z
          .object({
            entityId: z.uuid(),
            variantId: z.uuid().nullish(),
            quantity: z.number().int().min(1).max(10_000),
          })
          .strict(),
      );
      const InstallmentInput = pluginInput(
        'LayawayInstallmentInput',
        'A scheduled installment: when it is due and how much (integer minor units)',
        z
          .object({
            dueAt: z.coerce.date(),
            amount: money.min(1),
          })
          .strict(),
      );
      r.post('/')
        .name('layawayCreate')
        .output(PlanRef)
        .summary('Open a layaway plan and reserve its stock')
        .description(
          'Prices come from the price list in `currency`; the deposit is recorded as the first payment. Stock is reserved now (409/422 when it is not there); a deposit of the whole total completes the plan at once.',
        )
        .permission('layaway:operate')
        .input({
          customerEmail: z.email().max(320),
          currency: z.string().regex(/^[A-Z]{3}$/),
          lines: z.array(LineInput).min(1).max(100),
          deposit: money,
          depositMethod: z.string().min(1).max(50).default('cash'),
          installments: z.array(InstallmentInput).max(52).default([]),
          expiresAt: z.coerce.date(),
          forfeitPolicy: z.enum(FORFEIT_POLICIES).default('retain_deposit'),
        })
        .handler(({ input, ctx }) => {
          const now = Date.now();
          if (input.expiresAt.getTime() <= now || input.expiresAt.getTime() > now + maxDays * 86_400_000) {
            throw validationFailed([{ field: 'expiresAt', message: `must be in the future and within ${maxDays} days` }]);
          }
          return createPlan(ctx, input);
        });
      r.get('/')
        .name('layaways')
        .output(PlanRef)
        .summary('Layaway plans, newest first')
        .permission('layaway:operate')
        .paginated()
        .input({
          status: z.enum(STATUSES).optional(),
          limit: z
            .number()
            .int()
            .min(1)
            .default(20)
            .transform((n) => Math.min(n, 100)),
          offset: z.number().int().min(0).default(0),
        })
        .handler(({ input, ctx }) => listPlans(ctx, input));
      r.get('/:id')
        .name('layaway')
        .output(PlanRef)
        .summary('A layaway plan with its lines and payment ledger')
        .permission('layaway:operate')
        .handler(({ params, ctx }) => getPlan(ctx, params.id!));
      r.post('/:id/payments')
        .name('layawayPaymentCreate')
        .output(PlanRef)
        .summary('Record an installment; at full payment the plan completes into an order')
        .description(
          'Idempotent per `idempotencyKey`: a replay records nothing and returns the plan. A payment over the balance is 422; a plan that is not active is 422 INVALID_TRANSITION.',
        )
        .permission('layaway:operate')
        .permission('orders:create')
        .input({ amount: money.min(1), method: z.string().min(1).max(50).default('cash'), reference: z.string().max(200).nullish(), idempotencyKey: z.string().min(1).max(200) })
        .handler(async ({ params, input, ctx }) => (await recordPayment(ctx, params.id!, input)).plan);
      r.post('/:id/forfeit')
        .name('layawayForfeit')
        .output(PlanRef)
        .summary('Forfeit a plan: release its stock and split the money per its policy')
        .permission('layaway:manage')
        .input({ reason: z.string().min(1).max(500).default('forfeited by the shop') })
        .handler(({ params, input, ctx }) => forfeitPlan(ctx, params.id!, input.reason));
    },
    tasks: [expire as unknown as TaskDefinition],
    // Staff and admins see their organization's plans (GET /analytics/meta, POST /analytics/query);
    // customers do not: plans are keyed by email, not by customer id.
    analyticsModels: [
      {
        name: 'LayawayPlans',
        title: 'Layaway plans',
        table: 'plugin_layaway_plans',
        measures: {
          count: { type: 'count', title: 'Plans' },
          totalValue: { type: 'sum', sql: 'total', title: 'Value of the goods on layaway', format: 'currency' },
          paidAmount: { type: 'sum', sql: 'paid_amount', title: 'Paid so far', format: 'currency' },
          outstandingBalance: {
            type: 'sum',
            sql: '{T}.total - {T}.paid_amount',
            filter: `{T}.status = 'active'`,
            title: 'Balance still to pay on active plans',
            format: 'currency',
          },
          retainedAmount: { type: 'sum', sql: 'retained_amount', title: 'Kept by the shop from forfeited plans', format: 'currency' },
        },
        dimensions: {
          status: { type: 'string', sql: 'status', title: 'Status' },
          currency: { type: 'string', sql: 'currency', title: 'Currency' },
          forfeitPolicy: { type: 'string', sql: 'forfeit_policy', title: 'Forfeit policy' },
          createdAt: { type: 'time', sql: 'created_at', title: 'Opened at' },
          expiresAt: { type: 'time', sql: 'expires_at', title: 'Expires at' },
        },
      },
    ],
  });
}
