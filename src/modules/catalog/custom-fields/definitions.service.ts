// Custom-field definitions: per organization and entity type, a field's name, value type
// (string, number, boolean, date, enum with its values, json), and whether it is required or
// filterable (indexed by search). Definitions are archived, never deleted, so values written
// under them keep their meaning; an archived field accepts no new values.
import type { Db, Tx } from '../../../db/client.js';
import type { CatalogFieldDefinition, CatalogFieldType } from '../../../generated/prisma/client.js';
import { notFound, validationFailed, type FieldIssue } from '../../../errors.js';
import { withTransaction } from '../../../db/transaction.js';
import { runFieldIndexingChanged } from '../hooks.js';
import { assertNotVendor, mapWriteErrors, type CatalogCtx } from '../shared.js';
import { fieldDefinitionView, type FieldDefinitionView } from '../views.js';

export const FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'enum', 'json'] as const satisfies readonly CatalogFieldType[];
export const MAX_STRING_VALUE = 10_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Why `value` does not fit the definition, or null when it does. `value` is never null here. */
export function valueProblem(definition: Pick<CatalogFieldDefinition, 'type' | 'enumValues'>, value: unknown): string | null {
  switch (definition.type) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      return value.length > MAX_STRING_VALUE ? `must be at most ${MAX_STRING_VALUE} characters` : null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : 'must be an ISO 8601 date (2026-11-22) or date-time (2026-11-22T10:00:00Z)';
    case 'enum':
      return typeof value === 'string' && definition.enumValues.includes(value) ? null : `must be one of ${definition.enumValues.join(', ')}`;
    case 'json':
      return value === undefined ? 'must be a JSON value' : null;
  }
}

export async function definitionsFor(db: Db | Tx, ctx: Pick<CatalogCtx, 'organization'>, entityType: string): Promise<Map<string, CatalogFieldDefinition>> {
  const rows = await db.catalogFieldDefinition.findMany({ where: { organizationId: ctx.organization.id, entityType } });
  return new Map(rows.map((row) => [row.name, row]));
}

function enumValuesIssues(type: CatalogFieldType, enumValues: string[] | undefined): FieldIssue[] {
  if (type === 'enum') {
    if (!enumValues?.length) return [{ field: 'enumValues', message: 'an enum field needs at least one value' }];
    if (new Set(enumValues).size !== enumValues.length) return [{ field: 'enumValues', message: 'must not repeat a value' }];
    return [];
  }
  return enumValues?.length ? [{ field: 'enumValues', message: `only enum fields take enumValues, not ${type}` }] : [];
}

export interface DefinitionListInput {
  entityType?: string;
  includeArchived: boolean;
}

export async function listDefinitions(ctx: CatalogCtx, input: DefinitionListInput): Promise<FieldDefinitionView[]> {
  const rows = await ctx.db.catalogFieldDefinition.findMany({
    where: {
      organizationId: ctx.organization.id,
      ...(input.entityType ? { entityType: input.entityType } : {}),
      ...(input.includeArchived ? {} : { archivedAt: null }),
    },
    orderBy: [{ entityType: 'asc' }, { name: 'asc' }],
  });
  return rows.map(fieldDefinitionView);
}

export interface DefinitionCreateInput {
  entityType: string;
  name: string;
  type: CatalogFieldType;
  label?: string;
  description?: string;
  enumValues?: string[];
  required: boolean;
  filterable: boolean;
}

export async function createDefinition(ctx: CatalogCtx, input: DefinitionCreateInput): Promise<FieldDefinitionView> {
  assertNotVendor(ctx, 'changing custom-field definitions');
  const issues = enumValuesIssues(input.type, input.enumValues);
  if (issues.length) throw validationFailed(issues);
  const row = await mapWriteErrors(
    'Field definition',
    () =>
      ctx.db.catalogFieldDefinition.create({
        data: {
          organizationId: ctx.organization.id,
          entityType: input.entityType,
          name: input.name,
          type: input.type,
          label: input.label ?? null,
          description: input.description ?? null,
          enumValues: input.enumValues ?? [],
          required: input.required,
          filterable: input.filterable,
        },
      }),
    [[/.*/, `a field named ${input.name} already exists for entity type ${input.entityType} (archived ones keep their name)`]],
  );
  return fieldDefinitionView(row);
}

export interface DefinitionUpdateInput {
  label?: string | null;
  description?: string | null;
  enumValues?: string[];
  required?: boolean;
  filterable?: boolean;
}

async function findDefinition(ctx: CatalogCtx, id: string): Promise<CatalogFieldDefinition> {
  const row = await ctx.db.catalogFieldDefinition.findFirst({ where: { id, organizationId: ctx.organization.id } });
  if (!row) throw notFound('Field definition');
  return row;
}

export async function updateDefinition(ctx: CatalogCtx, id: string, input: DefinitionUpdateInput): Promise<FieldDefinitionView> {
  assertNotVendor(ctx, 'changing custom-field definitions');
  const current = await findDefinition(ctx, id);
  if (input.enumValues !== undefined) {
    const issues = enumValuesIssues(current.type, input.enumValues);
    if (issues.length) throw validationFailed(issues);
  }
  const row = await mapWriteErrors('Field definition', () =>
    withTransaction(ctx, async (tx) => {
      const updated = await tx.catalogFieldDefinition.update({
        where: { id: current.id, organizationId: ctx.organization.id },
        data: {
          ...(input.label !== undefined ? { label: input.label } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.enumValues !== undefined ? { enumValues: input.enumValues } : {}),
          ...(input.required !== undefined ? { required: input.required } : {}),
          ...(input.filterable !== undefined ? { filterable: input.filterable } : {}),
        },
      });
      if (updated.filterable !== current.filterable && !updated.archivedAt) await runFieldIndexingChanged(tx, ctx, updated);
      return updated;
    }),
  );
  return fieldDefinitionView(row);
}

/** Archives a definition (idempotent: an archived one is returned as it is). */
export async function archiveDefinition(ctx: CatalogCtx, id: string): Promise<FieldDefinitionView> {
  assertNotVendor(ctx, 'changing custom-field definitions');
  const current = await findDefinition(ctx, id);
  if (current.archivedAt) return fieldDefinitionView(current);
  const row = await withTransaction(ctx, async (tx) => {
    const archived = await tx.catalogFieldDefinition.update({
      where: { id: current.id, organizationId: ctx.organization.id },
      data: { archivedAt: new Date() },
    });
    if (archived.filterable) await runFieldIndexingChanged(tx, ctx, archived);
    return archived;
  });
  return fieldDefinitionView(row);
}
