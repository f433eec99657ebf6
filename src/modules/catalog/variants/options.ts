// Editing the option axes of an entity after they exist: rename an option type or one of its
// values, and reorder the values. Variants keep pointing at the same value rows, so a rename
// shows in every variant's `options` at once; stored SKUs and titles are the variants' own
// text and do not change (the dashboard edits them per variant).
//
// Each write locks the entity row first, like every variant write (service.ts), so a rename and
// a concurrent variant write of the same entity apply one at a time.
import type { Tx } from '../../../db/client.js';
import { notFound, validationFailed, type FieldIssue } from '../../../errors.js';
import { emitUpdated } from '../events.js';
import { inTransaction, lockEntity, mapWriteErrors, type CatalogCtx } from '../shared.js';
import { OPTION_TYPE_INCLUDE, optionTypeView, optionValueView, type OptionTypeView, type OptionValueView } from '../views.js';

async function typeOf(ctx: CatalogCtx, optionTypeId: string): Promise<{ id: string; entityId: string }> {
  const type = await ctx.db.catalogOptionType.findFirst({ where: { id: optionTypeId, organizationId: ctx.organization.id }, select: { id: true, entityId: true } });
  if (!type) throw notFound('Option type');
  return type;
}

function typeView(tx: Tx, optionTypeId: string): Promise<OptionTypeView> {
  return tx.catalogOptionType.findUniqueOrThrow({ where: { id: optionTypeId }, include: OPTION_TYPE_INCLUDE }).then(optionTypeView);
}

export interface OptionTypeUpdateInput {
  name?: string;
  label?: string | null;
  sortOrder?: number;
}

/** Renames an option type (name unique per entity: 409), relabels it or moves it among the axes. */
export async function updateOptionType(ctx: CatalogCtx, optionTypeId: string, input: OptionTypeUpdateInput): Promise<OptionTypeView> {
  const type = await typeOf(ctx, optionTypeId);
  return mapWriteErrors(
    'Option type',
    () =>
      inTransaction(ctx, async (tx) => {
        await lockEntity(tx, ctx, type.entityId);
        await tx.catalogOptionType.update({
          where: { id: optionTypeId, organizationId: ctx.organization.id },
          data: {
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.label !== undefined ? { label: input.label } : {}),
            ...(input.sortOrder !== undefined ? { sortOrder: input.sortOrder } : {}),
          },
        });
        // Variants' `options` are keyed by the type's name: they read differently after a rename.
        await emitUpdated(tx, ctx, type.entityId, input.name !== undefined ? ['optionTypes', 'variants'] : ['optionTypes']);
        return typeView(tx, optionTypeId);
      }),
    [[/.*/, `the entity already has an option type named ${input.name}`]],
  );
}

export interface OptionValueUpdateInput {
  value?: string;
  label?: string | null;
}

/** Renames an option value (unique per option type: 409) or relabels it. */
export async function updateOptionValue(ctx: CatalogCtx, optionValueId: string, input: OptionValueUpdateInput): Promise<OptionValueView> {
  const value = await ctx.db.catalogOptionValue.findFirst({
    where: { id: optionValueId, organizationId: ctx.organization.id },
    select: { optionType: { select: { entityId: true } } },
  });
  if (!value) throw notFound('Option value');
  const entityId = value.optionType.entityId;
  return mapWriteErrors(
    'Option value',
    () =>
      inTransaction(ctx, async (tx) => {
        await lockEntity(tx, ctx, entityId);
        const row = await tx.catalogOptionValue.update({
          where: { id: optionValueId, organizationId: ctx.organization.id },
          data: {
            ...(input.value !== undefined ? { value: input.value } : {}),
            ...(input.label !== undefined ? { label: input.label } : {}),
          },
        });
        await emitUpdated(tx, ctx, entityId, input.value !== undefined ? ['optionTypes', 'variants'] : ['optionTypes']);
        return optionValueView(row);
      }),
    [[/.*/, `the option type already has the value ${input.value}`]],
  );
}

/**
 * Puts the values of an option type in the given order: `valueIds` must name every value of the
 * type exactly once (a partial list would leave the others' positions undefined).
 */
export async function reorderOptionValues(ctx: CatalogCtx, optionTypeId: string, valueIds: string[]): Promise<OptionTypeView> {
  const type = await typeOf(ctx, optionTypeId);
  return inTransaction(ctx, async (tx) => {
    await lockEntity(tx, ctx, type.entityId);
    const current = await tx.catalogOptionValue.findMany({ where: { optionTypeId, organizationId: ctx.organization.id }, select: { id: true } });
    const known = new Set(current.map((v) => v.id));
    const issues: FieldIssue[] = [];
    valueIds.forEach((id, index) => {
      if (!known.has(id)) issues.push({ field: `valueIds.${index}`, message: 'not a value of this option type' });
      else if (valueIds.indexOf(id) !== index) issues.push({ field: `valueIds.${index}`, message: 'repeats a value' });
    });
    const missing = current.filter((v) => !valueIds.includes(v.id)).length;
    if (missing) issues.push({ field: 'valueIds', message: `must list every value of the option type; ${missing} missing` });
    if (issues.length) throw validationFailed(issues);
    // One statement for the whole list: positions follow the given order.
    await tx.$executeRaw`
      update catalog_option_values v set sort_order = o.position - 1
      from unnest(${valueIds}::uuid[]) with ordinality as o(id, position)
      where v.id = o.id and v.option_type_id = ${optionTypeId}::uuid`;
    await emitUpdated(tx, ctx, type.entityId, ['optionTypes', 'variants']);
    return typeView(tx, optionTypeId);
  });
}
