// Emitting an event = writing it to the `events` outbox table inside the transaction of the
// write that caused it. It is only ever seen (by subscribers, webhook delivery) after that
// transaction commits, and never for a rolled-back write. The dispatcher that reads the outbox
// lives with the job runner (src/jobs).
import type { Tx } from '../db/client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { EventName, EventPayload } from './registry.js';
import { currentTraceparent } from '../observability/trace-context.js';
import { markCacheTouched } from './cache-signal.js';

export interface EventOrigin {
  organizationId: string;
  actorId?: string | null;
  requestId?: string | null;
  /** The trace the event continues (webhook deliveries join it); the current span's when unset. */
  traceparent?: string | null;
}

/** The origin of events raised by a request: its organization, actor and request id. */
export function originOf(ctx: { organization: { id: string }; actor: { userId: string } | null; requestId: string }): EventOrigin {
  return { organizationId: ctx.organization.id, actorId: ctx.actor?.userId ?? null, requestId: ctx.requestId, traceparent: currentTraceparent() };
}

export async function recordEvent<N extends EventName>(tx: Tx, origin: EventOrigin, type: N, payload: EventPayload<N>): Promise<void> {
  markCacheTouched(origin.requestId, origin.organizationId, type);
  await tx.domainEvent.create({
    data: {
      organizationId: origin.organizationId,
      type,
      payload: payload as Prisma.InputJsonValue,
      actorId: origin.actorId ?? null,
      requestId: origin.requestId ?? null,
      traceparent: origin.traceparent ?? currentTraceparent(),
    },
  });
}

/**
 * The same event as an INSERT statement (created now, by this process's clock as recordEvent's rows are), for a set-based write that records its event in the
 * statement that makes the change (one round trip): `with ..., ev as (${eventInsertSql(...)})`. With `when` (a condition, e.g. `exists (select 1 from changed)`),
 * the event is written only if it holds: a conditional write records its event only when it wrote.
 */
export function eventInsertSql<N extends EventName>(origin: EventOrigin, type: N, payload: EventPayload<N>, when?: Prisma.Sql): Prisma.Sql {
  markCacheTouched(origin.requestId, origin.organizationId, type);
  const values = Prisma.sql`gen_random_uuid(), ${origin.organizationId}::uuid, ${type}::text, ${JSON.stringify(payload)}::jsonb, ${origin.actorId ?? null}::text, ${origin.requestId ?? null}::text,
      ${origin.traceparent ?? currentTraceparent()}::text, ${new Date()}::timestamptz`;
  return when
    ? Prisma.sql`insert into events (id, organization_id, type, payload, actor_id, request_id, traceparent, created_at) select ${values} where ${when}`
    : Prisma.sql`insert into events (id, organization_id, type, payload, actor_id, request_id, traceparent, created_at) values (${values})`;
}
