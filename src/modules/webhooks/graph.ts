// Job ↔ webhook delivery in the graph. A delivery is sent by a `webhooks/deliver` job: the
// delivery row names its current job (`jobId`, replaced on redelivery) and the job's input names
// its delivery (`deliveryId`, kept by every job that ever tried it). Both directions resolve when
// selected, batched (one statement per relation per level), each with its REST route's rule:
// a delivery's job needs jobs:admin (GET /admin/jobs/failed), a job's delivery webhooks:manage
// (GET /webhooks/deliveries/:id); without it the field is null with a FORBIDDEN error.
import type { WebhookDelivery } from '../../generated/prisma/client.js';
import type { Job } from '../../generated/prisma/client.js';
import { builder } from '../../graphql/builder.js';
import { batchLoader, graphOnly } from '../../graphql/loaders.js';
import { JobRef } from '../jobs/schema.js';
import { WebhookDeliveryRef } from './schema.js';
import { DELIVER_TASK } from './deliver.js';

builder.objectFields(WebhookDeliveryRef, (t) => ({
  job: t.field({
    type: JobRef,
    nullable: true,
    authScopes: { permission: 'jobs:admin' },
    description: 'The job that sends (or last sent) this delivery; a redelivery replaces it. Needs jobs:admin.',
    resolve: (delivery, _args, ctx) =>
      delivery.jobId
        ? batchLoader<Job | null>(
            ctx,
            'webhooks.jobById',
            async (ids) => {
              const rows = await ctx.db.job.findMany({ where: { id: { in: ids }, organizationId: ctx.organization.id } });
              return new Map(rows.map((row) => [row.id, row]));
            },
            () => null,
          ).load(delivery.jobId)
        : null,
  }),
}));

builder.objectFields(JobRef, (t) => ({
  webhookDelivery: t.field({
    type: WebhookDeliveryRef,
    nullable: true,
    authScopes: { permission: 'webhooks:manage' },
    description: `The webhook delivery this job sends (${DELIVER_TASK} jobs only; null for other tasks). Needs webhooks:manage.`,
    resolve: (job, _args, ctx) => {
      const deliveryId = job.taskSlug === DELIVER_TASK ? (job.input as { deliveryId?: unknown } | null)?.deliveryId : undefined;
      if (typeof deliveryId !== 'string') return null;
      return batchLoader<WebhookDelivery | null>(
        ctx,
        'webhooks.deliveryById',
        async (ids) => {
          const rows = await ctx.db.webhookDelivery.findMany({ where: { id: { in: ids }, organizationId: ctx.organization.id } });
          return new Map(rows.map((row) => [row.id, row]));
        },
        () => null,
      ).load(deliveryId);
    },
  }),
}));

graphOnly('WebhookDelivery', 'job');
graphOnly('Job', 'webhookDelivery');
