// Writing audit entries. The route builder calls `recordAudit` for every audited operation inside
// the operation's transaction (src/graphql/operation.ts); code that writes outside an operation
// (jobs, webhooks) calls it through ctx.services.audit with its own transaction client.
//
// before/after are snapshots for a reader, not a replica: values pass through `auditSnapshot`,
// which makes them JSON (bigint → number, Date → ISO string), blanks fields whose names say they
// hold a secret, and replaces anything larger than AUDIT_SNAPSHOT_MAX_BYTES by a marker.
import type { Actor } from '../../auth/actor.js';
import type { DbClient } from '../../db/transaction.js';
import type { Prisma } from '../../generated/prisma/client.js';

/** Largest before/after snapshot kept, in bytes of JSON; a larger one is replaced by a marker. */
export const AUDIT_SNAPSHOT_MAX_BYTES = 16 * 1024;
const MAX_DEPTH = 8;

/** Field names whose values never reach the audit log. */
const SECRET_FIELD = /^(password|passcode|pin|secret|token|key|apikey|api_key|hash|cookie|authorization)$|(password|secret|token|apikey|pinhash)$/i;

export interface AuditEntryInput {
  event: string;
  entityType: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

export interface AuditOrigin {
  organization: { id: string };
  actor: Pick<Actor, 'kind' | 'userId' | 'apiKeyId'> | null;
  requestId?: string | null;
}

function plain(value: unknown, depth: number): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((item) => plain(item, depth + 1) ?? null);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET_FIELD.test(key)) {
      if (item !== undefined) out[key] = '[redacted]';
      continue;
    }
    const converted = plain(item, depth + 1);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
}

/** A before/after value as stored: JSON, secrets redacted, size capped; null when absent. */
export function auditSnapshot(value: unknown): Prisma.InputJsonValue | null {
  if (value === undefined || value === null) return null;
  const converted = plain(value, 0);
  const text = JSON.stringify(converted);
  if (text === undefined) return null;
  if (Buffer.byteLength(text) > AUDIT_SNAPSHOT_MAX_BYTES) return { truncated: true, bytes: Buffer.byteLength(text) };
  return converted as Prisma.InputJsonValue;
}

export function actorFields(actor: AuditOrigin['actor']): { actorId: string | null; actorType: string; apiKeyId: string | null } {
  if (!actor) return { actorId: null, actorType: 'anonymous', apiKeyId: null };
  return { actorId: actor.userId, actorType: actor.kind, apiKeyId: actor.apiKeyId ?? null };
}

/** Writes one audit entry with the client given (the write's transaction). */
export async function recordAudit(db: DbClient, origin: AuditOrigin, entry: AuditEntryInput): Promise<void> {
  const before = auditSnapshot(entry.before);
  const after = auditSnapshot(entry.after);
  await db.auditEntry.create({
    data: {
      organizationId: origin.organization.id,
      ...actorFields(origin.actor),
      event: entry.event,
      entityType: entry.entityType,
      entityId: entry.entityId ?? null,
      ...(before === null ? {} : { before }),
      ...(after === null ? {} : { after }),
      requestId: origin.requestId ?? null,
    },
    select: { id: true },
  });
}

/**
 * Attributes identity changes (users, API keys) made later in this transaction to the acting
 * user and request: the database triggers that audit those rows read these settings. Call it
 * before writing users or api_keys from a request.
 */
export async function attributeIdentityChanges(tx: DbClient, origin: AuditOrigin): Promise<void> {
  await tx.$executeRaw`select set_config('commerce.actor_id', ${origin.actor?.userId ?? ''}, true), set_config('commerce.request_id', ${origin.requestId ?? ''}, true)`;
}
