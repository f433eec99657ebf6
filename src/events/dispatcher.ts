// The outbox dispatcher: reads committed, undispatched rows of `events` (oldest first), offers
// them to the subscribers, and marks them dispatched, all in one transaction. Rows are locked
// with FOR UPDATE SKIP LOCKED, so any number of processes can dispatch at once and each event is
// handed out once. Webhook fan-out is a required batch subscriber (modules/webhooks/fanout.ts):
// the delivery jobs it enqueues commit with the dispatched mark or not at all.
import type { Config } from '../config/index.js';
import type { Db, Tx } from '../db/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services.js';
import type { EventName } from './registry.js';
import { eventSubscribers, type DispatchedEvent, type EventSubscribers, type SubscriberContext } from './subscribers.js';

export interface DispatchDeps {
  db: Db;
  config: Config;
  logger: Logger;
  services: Services;
  subscribers?: EventSubscribers;
}

export interface DispatchOptions {
  /** Events per transaction. */
  limit?: number;
  /** Only this organization's events (the cron route); every organization's otherwise. */
  organizationId?: string;
}

export interface DispatchReport {
  dispatched: number;
  /** Events left undispatched because a required subscriber failed on them. */
  failed: number;
}

export const DEFAULT_DISPATCH_BATCH = 100;
const TRANSACTION_TIMEOUT_MS = 60_000;

interface EventRow {
  id: string;
  organization_id: string;
  type: string;
  payload: unknown;
  actor_id: string | null;
  request_id: string | null;
  traceparent: string | null;
  created_at: Date;
}

class RequiredSubscriberError extends Error {
  override name = 'RequiredSubscriberError';
}

async function lockBatch(tx: Tx, options: { limit: number; organizationId?: string; ids?: string[] }): Promise<DispatchedEvent[]> {
  const orgFilter = options.organizationId ? Prisma.sql`and organization_id = ${options.organizationId}::uuid` : Prisma.empty;
  const idFilter = options.ids ? Prisma.sql`and id = any(${options.ids}::uuid[])` : Prisma.empty;
  const rows = await tx.$queryRaw<EventRow[]>`
    select id, organization_id, type, payload, actor_id, request_id, traceparent, created_at from events
    where dispatched_at is null ${orgFilter} ${idFilter}
    order by created_at asc, id asc
    limit ${options.limit}::int
    for update skip locked`;
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organization_id,
    type: row.type as EventName,
    payload: row.payload as DispatchedEvent['payload'],
    actorId: row.actor_id,
    requestId: row.request_id,
    traceparent: row.traceparent,
    createdAt: row.created_at,
  }));
}

/** Runs a subscriber; a non-required one inside a savepoint so its failure undoes only its own writes. */
async function runSubscriber(tx: Tx, ctx: SubscriberContext, sub: { name: string; required: boolean }, savepoint: string, fn: () => Promise<void> | void): Promise<void> {
  if (sub.required) {
    try {
      await fn();
    } catch (error) {
      throw new RequiredSubscriberError(`required subscriber ${sub.name} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    }
    return;
  }
  await tx.$executeRawUnsafe(`savepoint ${savepoint}`);
  try {
    await fn();
    await tx.$executeRawUnsafe(`release savepoint ${savepoint}`);
  } catch (error) {
    await tx.$executeRawUnsafe(`rollback to savepoint ${savepoint}`);
    ctx.logger.error({ err: error, subscriber: sub.name }, 'event subscriber failed; continuing');
  }
}

async function dispatchIn(tx: Tx, deps: DispatchDeps, events: DispatchedEvent[]): Promise<void> {
  const subscribers = deps.subscribers ?? eventSubscribers;
  const ctx: SubscriberContext = { db: tx, logger: deps.logger, services: deps.services, config: deps.config };
  let n = 0;
  for (const sub of subscribers.batchSubscribers()) {
    await runSubscriber(tx, ctx, sub, `sub_${++n}`, () => sub.handler(events, ctx));
  }
  for (const event of events) {
    for (const sub of subscribers.forEvent(event.type)) {
      await runSubscriber(tx, ctx, sub, `sub_${++n}`, () => sub.handler(event, ctx));
    }
  }
  await tx.$executeRaw`update events set dispatched_at = now() where id = any(${events.map((e) => e.id)}::uuid[])`;
}

/** Dispatches one batch of undispatched events; returns how many it handed out. */
export async function dispatchEvents(deps: DispatchDeps, options: DispatchOptions = {}): Promise<DispatchReport> {
  const limit = options.limit ?? DEFAULT_DISPATCH_BATCH;
  let ids: string[] = [];
  try {
    const dispatched = await deps.db.$transaction(
      async (tx) => {
        const events = await lockBatch(tx, { limit, organizationId: options.organizationId });
        ids = events.map((e) => e.id);
        if (events.length) await dispatchIn(tx, deps, events);
        return events.length;
      },
      { timeout: TRANSACTION_TIMEOUT_MS },
    );
    return { dispatched, failed: 0 };
  } catch (error) {
    if (!(error instanceof RequiredSubscriberError) || ids.length <= 1) {
      deps.logger.error({ err: error, events: ids.length }, 'event dispatch failed; the events stay undispatched');
      return { dispatched: 0, failed: ids.length };
    }
  }
  // A required subscriber failed on the batch: dispatch one event at a time, so that only the
  // event it fails on waits for the next round.
  const report: DispatchReport = { dispatched: 0, failed: 0 };
  for (const id of ids) {
    try {
      report.dispatched += await deps.db.$transaction(
        async (tx) => {
          const events = await lockBatch(tx, { limit: 1, ids: [id] });
          if (events.length) await dispatchIn(tx, deps, events);
          return events.length;
        },
        { timeout: TRANSACTION_TIMEOUT_MS },
      );
    } catch (error) {
      report.failed += 1;
      deps.logger.error({ err: error, eventId: id }, 'event dispatch failed; the event stays undispatched');
    }
  }
  return report;
}
