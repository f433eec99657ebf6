// Webhook endpoints and deliveries, always within ctx.organization. The signing secret is
// returned once, by create; every other read leaves it out.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../context.js';
import { allowsPrivateWebhookTargets } from '../../config/schema.js';
import { conflict, notFound, validationFailed } from '../../errors.js';
import { knownEventNames } from '../../events/registry.js';
import type { Prisma, WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from '../../generated/prisma/client.js';
import { paginate, type ListCtx, type Page, type PageInput } from '../../graphql/pagination.js';
import { enqueueDeliveries } from './deliver.js';
import { generateSecret } from './signing.js';
import { assertPublicTarget, BlockedTargetError, parseTargetUrl } from './targets.js';

type Ctx = Pick<RequestContext, 'db' | 'organization' | 'config'>;

export type PublicEndpoint = Omit<WebhookEndpoint, 'secret'>;
export type CreatedEndpoint = PublicEndpoint & { secret: string };

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
const publicFields = { id: true, organizationId: true, url: true, events: true, description: true, createdAt: true, updatedAt: true } as const;

/** `*` or known event names, deduplicated; `*` alone when present. */
export function normalizeEvents(events: string[]): string[] {
  const known = new Set(knownEventNames());
  const unknown = events.filter((e) => e !== '*' && !known.has(e));
  if (unknown.length) {
    throw validationFailed(unknown.map((e) => ({ field: 'events', message: `unknown event ${JSON.stringify(e)}; use * or one of ${[...known].join(', ')}` })));
  }
  return events.includes('*') ? ['*'] : [...new Set(events)];
}

export async function createEndpoint(ctx: Ctx, input: { url: string; events: string[]; description?: string | null }): Promise<CreatedEndpoint> {
  const events = normalizeEvents(input.events);
  let url: URL;
  try {
    url = parseTargetUrl(input.url);
    await assertPublicTarget(url, allowsPrivateWebhookTargets(ctx.config));
  } catch (error) {
    if (error instanceof BlockedTargetError) throw validationFailed([{ field: 'url', message: error.message }]);
    throw error;
  }
  const secret = generateSecret();
  const endpoint = await ctx.db.webhookEndpoint.create({
    data: { organizationId: ctx.organization.id, url: url.toString(), events, description: input.description ?? null, secret },
    select: publicFields,
  });
  return { ...endpoint, secret };
}

export async function listEndpoints(ctx: Ctx & ListCtx, input: { page: number; limit: number } & PageInput): Promise<Page<PublicEndpoint>> {
  const where = { organizationId: ctx.organization.id };
  return paginate(ctx, input, {
    list: 'webhookEndpoints',
    model: 'WebhookEndpoint',
    where,
    orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }],
    findMany: (args) => ctx.db.webhookEndpoint.findMany({ ...args, select: publicFields }),
    count: (w) => ctx.db.webhookEndpoint.count({ where: w }),
    view: (items) => items,
  });
}

/** Deletes an endpoint with its deliveries; jobs still queued for it finish as skipped. */
export async function deleteEndpoint(ctx: Ctx, id: string): Promise<PublicEndpoint> {
  const where = { id, organizationId: ctx.organization.id };
  const endpoint = await ctx.db.webhookEndpoint.findFirst({ where, select: publicFields });
  if (!endpoint) throw notFound('Webhook endpoint');
  const { count } = await ctx.db.webhookEndpoint.deleteMany({ where });
  if (count === 0) throw notFound('Webhook endpoint');
  return endpoint;
}

export interface DeliveryFilter {
  endpointId?: string;
  status?: (typeof DELIVERY_STATUSES)[number];
  eventType?: string;
  page: number;
  limit: number;
}

export async function listDeliveries(ctx: Ctx & ListCtx, input: DeliveryFilter & PageInput): Promise<Page<WebhookDelivery>> {
  const where: Prisma.WebhookDeliveryWhereInput = {
    organizationId: ctx.organization.id,
    ...(input.endpointId ? { endpointId: input.endpointId } : {}),
    ...(input.status ? { status: input.status } : {}),
    ...(input.eventType ? { eventType: input.eventType } : {}),
  };
  return paginate(ctx, input, {
    list: 'webhookDeliveries',
    model: 'WebhookDelivery',
    where,
    orderBy: [{ createdAt: 'desc' as const }, { id: 'asc' as const }],
    findMany: (args) => ctx.db.webhookDelivery.findMany(args),
    count: (w) => ctx.db.webhookDelivery.count({ where: w }),
    view: (items) => items,
  });
}

export async function getDelivery(ctx: Ctx, id: string): Promise<WebhookDelivery> {
  const delivery = await ctx.db.webhookDelivery.findFirst({ where: { id, organizationId: ctx.organization.id } });
  if (!delivery) throw notFound('Webhook delivery');
  return delivery;
}

/** Every HTTP attempt of a delivery, first to last. */
export async function listAttempts(ctx: Ctx & ListCtx, input: { id: string; page: number; limit: number } & PageInput): Promise<Page<WebhookDeliveryAttempt>> {
  await getDelivery(ctx, input.id);
  const where = { deliveryId: input.id, organizationId: ctx.organization.id };
  return paginate(ctx, input, {
    list: 'webhookDeliveryAttempts',
    model: 'WebhookDeliveryAttempt',
    where,
    orderBy: [{ attempt: 'asc' as const }, { createdAt: 'asc' as const }, { id: 'asc' as const }],
    findMany: (args) => ctx.db.webhookDeliveryAttempt.findMany(args),
    count: (w) => ctx.db.webhookDeliveryAttempt.count({ where: w }),
    view: (items) => items,
  });
}

/**
 * Sends a finished delivery again (same webhook-id, so a receiver that got it already can drop
 * it): back to pending with a new delivery job. A delivery still pending is already on its way: 409.
 */
export async function redeliver(ctx: Ctx, id: string): Promise<WebhookDelivery> {
  return ctx.db.$transaction(async (tx) => {
    const jobId = randomUUID();
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id, organizationId: ctx.organization.id, status: { in: ['failed', 'succeeded'] } },
      data: { status: 'pending', jobId },
    });
    if (count === 0) {
      const existing = await tx.webhookDelivery.findFirst({ where: { id, organizationId: ctx.organization.id }, select: { status: true } });
      if (!existing) throw notFound('Webhook delivery');
      throw conflict('This delivery is still pending: it is being delivered or will be retried', { status: existing.status });
    }
    await enqueueDeliveries(tx, ctx.config, [{ id, organizationId: ctx.organization.id, jobId }]);
    return tx.webhookDelivery.findFirstOrThrow({ where: { id } });
  });
}
