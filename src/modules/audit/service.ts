// Reading the audit log: GET /audit (filters) and GET /audit/:entityType/:entityId (one
// entity's history), newest first, always within the caller's organization.
import type { ServiceContext } from '../../db/transaction.js';
import type { AuditEntry, Prisma } from '../../generated/prisma/client.js';
import { paginate, type ListCtx, type Page, type PageInput } from '../../graphql/pagination.js';

export interface AuditEntryView {
  id: string;
  event: string;
  entityType: string;
  entityId: string | null;
  actorId: string | null;
  actorType: string;
  apiKeyId: string | null;
  before: unknown;
  after: unknown;
  requestId: string | null;
  createdAt: Date;
}

export function auditEntryView(row: AuditEntry): AuditEntryView {
  return {
    id: row.id,
    event: row.event,
    entityType: row.entityType,
    entityId: row.entityId,
    actorId: row.actorId,
    actorType: row.actorType,
    apiKeyId: row.apiKeyId,
    before: row.before ?? null,
    after: row.after ?? null,
    requestId: row.requestId,
    createdAt: row.createdAt,
  };
}

export interface AuditQuery {
  entityType?: string;
  entityId?: string;
  event?: string;
  actorId?: string;
  from?: Date;
  to?: Date;
  page: number;
  limit: number;
}

export async function listAuditEntries(ctx: ServiceContext & ListCtx, input: AuditQuery & PageInput): Promise<Page<AuditEntryView>> {
  const where: Prisma.AuditEntryWhereInput = {
    organizationId: ctx.organization.id,
    ...(input.entityType ? { entityType: input.entityType } : {}),
    ...(input.entityId ? { entityId: input.entityId } : {}),
    ...(input.event ? { event: input.event } : {}),
    ...(input.actorId ? { actorId: input.actorId } : {}),
    ...(input.from || input.to ? { createdAt: { ...(input.from ? { gte: input.from } : {}), ...(input.to ? { lte: input.to } : {}) } } : {}),
  };
  return paginate(ctx, input, {
    list: 'auditEntries',
    model: 'AuditEntry',
    where,
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    findMany: (args) => ctx.db.auditEntry.findMany(args),
    count: (w) => ctx.db.auditEntry.count({ where: w }),
    view: (rows) => rows.map(auditEntryView),
  });
}
