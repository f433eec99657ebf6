// The loyalty stamp card: the smallest complete plugin, the example of plugins/README.md.
//   table      LoyaltyStamp (schema.prisma)
//   operation  GET /api/loyalty/stamps?email= (loyalty:read) — also the GraphQL query loyaltyStamps
//   hook       orders.afterCreate: one stamp per order with a customer email
//   task       loyalty/expire-stamps: deletes the organization's stamps older than N days
//   scope      API keys `loyalty` (prefix cs_loyalty_, permission loyalty:read) for a kiosk
// Enable it with `plugins: [loyalty()]` in commerce.config.ts.
import { z } from 'zod';
import { definePlugin, pluginHook, type Plugin } from '../../src/plugins/index.js';
import type { TaskDefinition } from '../../src/jobs/tasks.js';
import { pluginObject } from '../../src/plugins/types.js';

declare module '../../src/jobs/tasks.js' {
  interface TaskTypes {
    'loyalty/expire-stamps': { input: { olderThanDays?: number }; output: { deleted: number } };
  }
}

export interface LoyaltyOptions {
  /** Stamps older than this many days expire when loyalty/expire-stamps runs (default 365). */
  stampLifetimeDays?: number;
}

export function loyalty(options: LoyaltyOptions = {}): Plugin {
  const lifetime = options.stampLifetimeDays ?? 365;
  const expireStamps: TaskDefinition<'loyalty/expire-stamps'> = {
    slug: 'loyalty/expire-stamps',
    // One sweep per organization at a time; a second one queued meanwhile would do nothing new.
    concurrency: { key: () => 'sweep', supersedes: true },
    async handler(input, ctx) {
      const days = input.olderThanDays ?? lifetime;
      const { count } = await ctx.db.loyaltyStamp.deleteMany({
        where: { organizationId: ctx.organizationId, createdAt: { lt: new Date(Date.now() - days * 86_400_000) } },
      });
      return { deleted: count };
    },
  };

  return definePlugin({
    id: 'loyalty',
    version: '1.0.0',
    schema: 'plugins/loyalty/schema.prisma',
    permissions: [{ scope: 'loyalty:read', description: 'Read customers’ stamp counts' }],
    apiKeyScopes: {
      loyalty: {
        prefix: 'cs_loyalty_',
        description: 'In-store kiosk: reads stamp counts (loyalty:read).',
        permissions: { loyalty: ['read'] },
        keyExpiration: { minExpiresIn: 1, maxExpiresIn: 365 },
      },
    },
    routes(ctx) {
      const r = ctx.routes({ tag: 'loyalty', prefix: '/loyalty' });
      // The answer's type, declared here so that only an enabled plugin adds it to the schema.
      const StampCard = pluginObject<{ email: string; stamps: number; rewards: number }>(
        'LoyaltyStampCard',
        'A customer’s stamp card: one stamp per order, a reward per 10 stamps.',
        {
          email: 'String',
          stamps: { type: 'Int', description: 'Stamps collected (unexpired)' },
          rewards: { type: 'Int', description: 'Rewards earned: stamps / 10, rounded down' },
        },
      );
      r.get('/stamps')
        .output(StampCard)
        .summary('Stamp count of a customer')
        .permission('loyalty:read')
        .input({ email: z.email().max(320) })
        .handler(async ({ input, db, organizationId }) => {
          const email = input.email.toLowerCase();
          const stamps = await db.loyaltyStamp.count({ where: { organizationId, customerEmail: email } });
          return { email, stamps, rewards: Math.floor(stamps / 10) };
        });
    },
    hooks: [
      pluginHook(
        'orders.afterCreate',
        async ({ order }, ctx) => {
          if (!order.customerEmail) return;
          // createMany + skipDuplicates: a replayed checkout does not stamp twice.
          await ctx.db.loyaltyStamp.createMany({
            data: [{ organizationId: ctx.organization.id, customerEmail: order.customerEmail.toLowerCase(), orderId: order.id }],
            skipDuplicates: true,
          });
        },
        'loyalty:stamp',
      ),
    ],
    tasks: [expireStamps as unknown as TaskDefinition],
  });
}
