// Custom-field values. Every value is a row with provenance (source, who proposed it, who
// reviewed it and when); the live value of a field and locale is its one `approved` row (a
// partial unique index holds that under any concurrency).
//
// - Direct writes (entity create, PATCH `customFields`) are approved at once, source `platform`.
// - Proposals (`POST .../custom-fields/:fieldName/proposals`) wait in the organization's queue;
//   approving the newest proposal of a field and locale displaces the live value atomically and
//   retires older pending proposals of that field and locale; rejecting marks the newest one
//   rejected. Writes that touch a field lock the entity row first, so they apply one at a time.
import type { Db, Tx } from '../../../db/client.js';
import type { CatalogCustomField, CatalogFieldDefinition, Prisma } from '../../../generated/prisma/client.js';
import { notFound, validationFailed, type FieldIssue } from '../../../errors.js';
import { paginate, type ListCtx, type Page, type PageInput } from '../../../graphql/pagination.js';
import { definitionsFor, valueProblem } from './definitions.service.js';
import { emitUpdated } from '../events.js';
import { inTransaction, assertNotVendor, assertSyncAllowed, isForeignKeyViolation, lockEntity, writesEntity, type CatalogCtx } from '../shared.js';
import { customFieldView, type CustomFieldView, type ProposalView } from '../views.js';

type Patch = Record<string, unknown>;

export interface ValidatedFields {
  set: Array<{ name: string; value: unknown }>;
  clear: string[];
}

function fieldProblem(definition: CatalogFieldDefinition | undefined, entityType: string): string | null {
  if (!definition) return `no custom field of that name is defined for entity type ${entityType}`;
  if (definition.archivedAt) return 'this custom field is archived and takes no new values';
  return null;
}

/**
 * Checks a customFields object (create) or patch (update) against the entity type's
 * definitions: unknown, archived or mistyped fields and missing required ones are 422 with
 * `customFields.<name>` in details. On create a null value means "not set".
 */
export async function validateCustomFields(db: Db | Tx, ctx: CatalogCtx, entityType: string, patch: Patch | undefined, mode: 'create' | 'update'): Promise<ValidatedFields> {
  const entries = Object.entries(patch ?? {}).filter(([, value]) => value !== undefined);
  if (mode === 'update' && !entries.length) return { set: [], clear: [] };
  const definitions = await definitionsFor(db, ctx, entityType);
  const issues: FieldIssue[] = [];
  const result: ValidatedFields = { set: [], clear: [] };
  for (const [name, value] of entries) {
    const definition = definitions.get(name);
    const problem =
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      fieldProblem(definition, entityType) ?? (value === null ? (definition!.required ? 'is required and cannot be cleared' : null) : valueProblem(definition!, value));
    if (problem) issues.push({ field: `customFields.${name}`, message: problem });
    else if (value === null) result.clear.push(name);
    else result.set.push({ name, value });
  }
  if (mode === 'create') {
    const given = new Set(result.set.map((entry) => entry.name));
    for (const definition of definitions.values()) {
      if (definition.required && !definition.archivedAt && !given.has(definition.name) && !issues.some((i) => i.field === `customFields.${definition.name}`)) {
        issues.push({ field: `customFields.${definition.name}`, message: 'is required' });
      }
    }
  }
  if (issues.length) throw validationFailed(issues);
  return result;
}

/** Applies validated direct writes inside the caller's transaction (entity row already locked or new). */
export async function applyCustomFields(tx: Tx, ctx: CatalogCtx, entityId: string, fields: ValidatedFields, locale: string): Promise<void> {
  const names = [...fields.set.map((entry) => entry.name), ...fields.clear];
  if (!names.length) return;
  const reviewedBy = ctx.actor?.userId ?? null;
  await tx.catalogCustomField.updateMany({
    where: { organizationId: ctx.organization.id, entityId, locale, fieldName: { in: names }, status: 'approved' },
    data: { status: 'superseded' },
  });
  if (fields.set.length) {
    const now = new Date();
    await tx.catalogCustomField.createMany({
      data: fields.set.map((entry) => ({
        organizationId: ctx.organization.id,
        entityId,
        fieldName: entry.name,
        locale,
        value: entry.value as Prisma.InputJsonValue,
        status: 'approved' as const,
        source: 'platform',
        proposedBy: reviewedBy,
        reviewedBy,
        reviewedAt: now,
      })),
    });
  }
}

// ── proposals ──

export interface ProposalInput {
  value: unknown;
  locale: string;
  source: string;
  sourceStoreId?: string;
  note?: string;
}

/** Proposes a value for one field and locale; validated against the definition now and again on approval. */
export async function proposeValue(ctx: CatalogCtx, entityId: string, fieldName: string, input: ProposalInput): Promise<CustomFieldView> {
  const entity = await ctx.db.catalogEntity.findFirst({ where: { id: entityId, organizationId: ctx.organization.id }, select: { id: true, type: true, metadata: true } });
  // A vendor proposes values for its own entities only, as it writes them (lockEntity).
  if (!entity || !writesEntity(ctx, entity.metadata)) throw notFound('Catalog entity');
  const definition = (await definitionsFor(ctx.db, ctx, entity.type)).get(fieldName);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const problem = fieldProblem(definition, entity.type) ?? valueProblem(definition!, input.value);
  if (problem) throw validationFailed([{ field: definition && !definition.archivedAt ? 'value' : 'fieldName', message: problem }]);
  const row = await ctx.db.catalogCustomField
    .create({
      data: {
        organizationId: ctx.organization.id,
        entityId,
        fieldName,
        locale: input.locale,
        value: input.value as Prisma.InputJsonValue,
        status: 'proposed',
        source: input.source,
        sourceStoreId: input.sourceStoreId ?? null,
        note: input.note ?? null,
        proposedBy: ctx.actor?.userId ?? null,
      },
    })
    .catch((error: unknown) => {
      // The entity was deleted since it was read.
      if (isForeignKeyViolation(error)) throw notFound('Catalog entity');
      throw error;
    });
  return customFieldView(row);
}

async function newestProposal(tx: Tx, ctx: CatalogCtx, entityId: string, fieldName: string, locale: string): Promise<CatalogCustomField> {
  const proposal = await tx.catalogCustomField.findFirst({
    where: { organizationId: ctx.organization.id, entityId, fieldName, locale, status: 'proposed' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  if (!proposal) throw notFound(`Pending proposal for custom field ${fieldName} (locale ${locale})`);
  return proposal;
}

/** Approves the newest pending proposal: it becomes the live value in the same transaction. */
export async function approveProposal(ctx: CatalogCtx, entityId: string, fieldName: string, locale: string): Promise<CustomFieldView> {
  return inTransaction(ctx, async (tx) => {
    const entity = await lockEntity(tx, ctx, entityId);
    assertSyncAllowed(ctx, entity, 'approving a proposal');
    const proposal = await newestProposal(tx, ctx, entityId, fieldName, locale);
    const definition = (await definitionsFor(tx, ctx, entity.type)).get(fieldName);
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const problem = fieldProblem(definition, entity.type) ?? valueProblem(definition!, proposal.value);
    if (problem) throw validationFailed([{ field: 'value', message: `the proposed value no longer fits its definition: ${problem}` }]);
    const now = new Date();
    const reviewedBy = ctx.actor?.userId ?? null;
    await tx.catalogCustomField.updateMany({
      where: { organizationId: ctx.organization.id, entityId, fieldName, locale, status: 'approved' },
      data: { status: 'superseded' },
    });
    // Older pending proposals of this field and locale are stale once a newer one is live.
    await tx.catalogCustomField.updateMany({
      where: { organizationId: ctx.organization.id, entityId, fieldName, locale, status: 'proposed', id: { not: proposal.id } },
      data: { status: 'superseded', reviewedBy, reviewedAt: now },
    });
    const approved = await tx.catalogCustomField.update({ where: { id: proposal.id }, data: { status: 'approved', reviewedBy, reviewedAt: now } });
    await emitUpdated(tx, ctx, entityId, [`customFields.${fieldName}`]);
    return customFieldView(approved);
  });
}

/** Rejects the newest pending proposal of a field and locale; the live value is untouched. */
export async function rejectProposal(ctx: CatalogCtx, entityId: string, fieldName: string, locale: string): Promise<CustomFieldView> {
  return inTransaction(ctx, async (tx) => {
    const entity = await lockEntity(tx, ctx, entityId);
    assertSyncAllowed(ctx, entity, 'rejecting a proposal');
    const proposal = await newestProposal(tx, ctx, entityId, fieldName, locale);
    const rejected = await tx.catalogCustomField.update({
      where: { id: proposal.id },
      data: { status: 'rejected', reviewedBy: ctx.actor?.userId ?? null, reviewedAt: new Date() },
    });
    return customFieldView(rejected);
  });
}

export interface ProposalQueueInput {
  entityType?: string;
  page: number;
  limit: number;
}

/** The organization's pending proposals, oldest first (a review queue). */
export async function proposalQueue(ctx: CatalogCtx & ListCtx, input: ProposalQueueInput & PageInput): Promise<Page<ProposalView>> {
  assertNotVendor(ctx, 'the proposal queue');
  const where: Prisma.CatalogCustomFieldWhereInput = {
    organizationId: ctx.organization.id,
    status: 'proposed',
    ...(input.entityType ? { entity: { type: input.entityType } } : {}),
  };
  return paginate(ctx, input, {
    list: 'catalogCustomFieldProposals',
    model: 'CatalogCustomField',
    where,
    orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }],
    findMany: (args) => ctx.db.catalogCustomField.findMany({ ...args, include: { entity: { select: { slug: true, type: true } } } }),
    count: (w) => ctx.db.catalogCustomField.count({ where: w }),
    view: (rows) => rows.map(({ entity, ...row }) => ({ ...customFieldView(row), entitySlug: entity.slug, entityType: entity.type })),
  });
}
