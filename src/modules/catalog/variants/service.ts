// Option types (axes such as size or color), their values, and variants: one sellable
// combination of option values with its own SKU (unique per organization) and optional tax
// class. A combination exists at most once per entity (the variant's `optionKey`).
//
// Every write here locks the entity row first, so concurrent variant writes of one entity apply
// one at a time: two `variants/quick` calls for the same combination give one 201 and one 200.
// New variants go through the `variantsCreated` hooks (inventory seeds zero stock there).
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../../db/client.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { conflict, notFound, validationFailed, type FieldIssue } from '../../../errors.js';
import { emitUpdated } from '../events.js';
import { runVariantsCreated } from '../hooks.js';
import { assertTaxClass, inTransaction, invalid, lockEntity, mapWriteErrors, type CatalogCtx } from '../shared.js';
import { loadVariants } from '../queries.js';
import { OPTION_TYPE_INCLUDE, optionTypeView, optionValueView, type OptionTypeView, type OptionValueView, type VariantView } from '../views.js';

/** Limits that keep one call's matrix bounded (named here, next to the rule). */
export const MAX_AXES = 10;
export const MAX_VALUES_PER_AXIS = 100;
export const MAX_MATRIX = 1000;
const MAX_SKU_LENGTH = 100;

/** A variant's lifecycle; only active variants are sold (carts refuse the others). */
export const VARIANT_STATUSES = ['active', 'draft', 'archived'] as const;
export type VariantStatus = (typeof VARIANT_STATUSES)[number];

type Json = Record<string, unknown>;
type OptionTypeRow = Prisma.CatalogOptionTypeGetPayload<{ include: typeof OPTION_TYPE_INCLUDE }>;
interface Pick1 {
  optionTypeId: string;
  optionValueId: string;
  value: string;
}

const SKU_CONFLICT: Array<[RegExp, string]> = [
  [/sku/, 'a variant with this SKU already exists in the organization'],
  [/option_key|optionKey/, 'a variant with this combination of option values already exists'],
];

export function optionKey(valueIds: readonly string[]): string {
  return [...valueIds].sort().join(',');
}

function skuPart(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `BLUE-TEE-RED-L`: the prefix (default the entity slug) then each option value. */
export function generatedSku(prefix: string, values: readonly string[]): string {
  return [prefix, ...values].map(skuPart).filter(Boolean).join('-').slice(0, MAX_SKU_LENGTH);
}

function titleOf(values: readonly string[]): string | null {
  return values.length ? values.join(' / ') : null;
}

function loadTypes(tx: Tx, ctx: CatalogCtx, entityId: string): Promise<OptionTypeRow[]> {
  return tx.catalogOptionType.findMany({
    where: { organizationId: ctx.organization.id, entityId },
    include: OPTION_TYPE_INCLUDE,
    orderBy: [{ sortOrder: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }],
  });
}

function variantViews(tx: Tx, ctx: CatalogCtx, ids: string[]): Promise<VariantView[]> {
  return loadVariants(tx, ctx.organization.id, { ids });
}

// ── option types and values ──

export interface OptionTypeInput {
  name: string;
  label?: string;
  sortOrder?: number;
  values?: string[];
}

export async function createOptionType(ctx: CatalogCtx, entityId: string, input: OptionTypeInput): Promise<OptionTypeView> {
  const values = input.values ?? [];
  if (new Set(values).size !== values.length) throw invalid('values', 'must not repeat a value');
  return mapWriteErrors(
    'Option type',
    () =>
      inTransaction(ctx, async (tx) => {
        await lockEntity(tx, ctx, entityId);
        const sortOrder = input.sortOrder ?? (await tx.catalogOptionType.count({ where: { organizationId: ctx.organization.id, entityId } }));
        const type = await tx.catalogOptionType.create({
          data: { organizationId: ctx.organization.id, entityId, name: input.name, label: input.label ?? null, sortOrder },
        });
        if (values.length) {
          await tx.catalogOptionValue.createMany({
            data: values.map((value, index) => ({ organizationId: ctx.organization.id, optionTypeId: type.id, value, sortOrder: index })),
          });
        }
        await emitUpdated(tx, ctx, entityId, ['optionTypes']);
        const row = await tx.catalogOptionType.findUniqueOrThrow({ where: { id: type.id }, include: OPTION_TYPE_INCLUDE });
        return optionTypeView(row);
      }),
    [[/.*/, `the entity already has an option type named ${input.name}`]],
  );
}

export interface OptionValueInput {
  value: string;
  label?: string;
  sortOrder?: number;
}

export async function createOptionValue(ctx: CatalogCtx, optionTypeId: string, input: OptionValueInput): Promise<OptionValueView> {
  const type = await ctx.db.catalogOptionType.findFirst({ where: { id: optionTypeId, organizationId: ctx.organization.id }, select: { id: true, entityId: true } });
  if (!type) throw notFound('Option type');
  return mapWriteErrors(
    'Option value',
    () =>
      inTransaction(ctx, async (tx) => {
        await lockEntity(tx, ctx, type.entityId);
        const sortOrder = input.sortOrder ?? (await tx.catalogOptionValue.count({ where: { optionTypeId } }));
        const row = await tx.catalogOptionValue.create({
          data: { organizationId: ctx.organization.id, optionTypeId, value: input.value, label: input.label ?? null, sortOrder },
        });
        await emitUpdated(tx, ctx, type.entityId, ['optionTypes']);
        return optionValueView(row);
      }),
    [[/.*/, `the option type already has the value ${input.value}`]],
  );
}

/**
 * Creates missing option types (by name) and values inline; returns every option type of the
 * entity afterwards and whether anything was created. INSERT ... ON CONFLICT DO NOTHING keeps
 * it safe next to writers that do not hold the entity lock.
 */
async function upsertAxes(tx: Tx, ctx: CatalogCtx, entityId: string, axes: Array<[string, string[]]>): Promise<{ types: OptionTypeRow[]; changed: boolean }> {
  let types = await loadTypes(tx, ctx, entityId);
  let changed = false;
  const missingTypes = axes.filter(([name]) => !types.some((t) => t.name === name));
  if (missingTypes.length) {
    const created = await tx.catalogOptionType.createMany({
      data: missingTypes.map(([name], index) => ({ organizationId: ctx.organization.id, entityId, name, sortOrder: types.length + index })),
      skipDuplicates: true,
    });
    changed ||= created.count > 0;
    types = await loadTypes(tx, ctx, entityId);
  }
  const missingValues = axes.flatMap(([name, values]) => {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const type = types.find((t) => t.name === name)!;
    return values
      .filter((value) => !type.values.some((v) => v.value === value))
      .map((value, index) => ({ organizationId: ctx.organization.id, optionTypeId: type.id, value, sortOrder: type.values.length + index }));
  });
  if (missingValues.length) {
    const created = await tx.catalogOptionValue.createMany({ data: missingValues, skipDuplicates: true });
    changed ||= created.count > 0;
    types = await loadTypes(tx, ctx, entityId);
  }
  return { types, changed };
}

/** Maps `{ axis: value }` onto existing option types and values; 422 for anything unknown or repeated. */
function pickByName(types: OptionTypeRow[], options: Record<string, string>, field: string): Pick1[] {
  const issues: FieldIssue[] = [];
  const picks: Pick1[] = [];
  for (const [name, value] of Object.entries(options)) {
    const type = types.find((t) => t.name === name);
    const found = type?.values.find((v) => v.value === value);
    if (!type) issues.push({ field: `${field}.${name}`, message: `the entity has no option type named ${name}` });
    else if (!found) issues.push({ field: `${field}.${name}`, message: `option type ${name} has no value ${value}` });
    else picks.push({ optionTypeId: type.id, optionValueId: found.id, value: found.value });
  }
  if (issues.length) throw validationFailed(issues);
  return picks;
}

function pickByIds(types: OptionTypeRow[], ids: string[]): Pick1[] {
  const picks: Pick1[] = [];
  const issues: FieldIssue[] = [];
  ids.forEach((id, index) => {
    const type = types.find((t) => t.values.some((v) => v.id === id));
    const value = type?.values.find((v) => v.id === id);
    if (!type || !value) issues.push({ field: `optionValueIds.${index}`, message: 'not an option value of this entity' });
    else if (picks.some((p) => p.optionTypeId === type.id)) issues.push({ field: `optionValueIds.${index}`, message: `a second value for option type ${type.name}` });
    else picks.push({ optionTypeId: type.id, optionValueId: value.id, value: value.value });
  });
  if (issues.length) throw validationFailed(issues);
  return picks;
}

/** Picks in option-type order (so titles and SKUs read size before color consistently). */
function ordered(types: OptionTypeRow[], picks: Pick1[]): Pick1[] {
  const rank = new Map(types.map((t, index) => [t.id, index]));
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return [...picks].sort((a, b) => rank.get(a.optionTypeId)! - rank.get(b.optionTypeId)!);
}

interface NewVariant {
  sku?: string;
  title?: string;
  status?: VariantStatus;
  taxClassId?: string | null;
  metadata?: Json;
}

async function insertVariants(
  tx: Tx,
  ctx: CatalogCtx,
  entity: { id: string; slug: string },
  combos: Array<{ picks: Pick1[] } & NewVariant>,
  skuPrefix?: string,
): Promise<string[]> {
  for (const id of new Set(combos.map((c) => c.taxClassId).filter(Boolean))) await assertTaxClass(tx, ctx, id);
  const rows = combos.map((combo) => {
    const values = combo.picks.map((p) => p.value);
    return {
      id: randomUUID(),
      organizationId: ctx.organization.id,
      entityId: entity.id,
      sku: combo.sku ?? generatedSku(skuPrefix ?? entity.slug, values),
      title: combo.title ?? titleOf(values),
      status: combo.status ?? 'active',
      optionKey: optionKey(combo.picks.map((p) => p.optionValueId)),
      taxClassId: combo.taxClassId ?? null,
      metadata: (combo.metadata ?? {}) as Prisma.InputJsonObject,
      picks: combo.picks,
    };
  });
  if (!rows.length) return [];
  await tx.catalogVariant.createMany({ data: rows.map(({ picks: _picks, ...row }) => row) });
  const links = rows.flatMap((row) =>
    row.picks.map((p) => ({ variantId: row.id, optionTypeId: p.optionTypeId, optionValueId: p.optionValueId, organizationId: ctx.organization.id })),
  );
  if (links.length) await tx.catalogVariantOption.createMany({ data: links });
  await runVariantsCreated(
    tx,
    ctx,
    rows.map((row) => ({ id: row.id, entityId: entity.id, sku: row.sku })),
  );
  return rows.map((row) => row.id);
}

// ── one variant ──

export interface VariantCreateInput extends NewVariant {
  optionValueIds?: string[];
  options?: Record<string, string>;
}

export async function createVariant(ctx: CatalogCtx, entityId: string, input: VariantCreateInput): Promise<VariantView> {
  return mapWriteErrors(
    'Variant',
    () =>
      inTransaction(ctx, async (tx) => {
        const entity = await lockEntity(tx, ctx, entityId);
        const types = await loadTypes(tx, ctx, entityId);
        const picks = ordered(types, input.options ? pickByName(types, input.options, 'options') : pickByIds(types, input.optionValueIds ?? []));
        const key = optionKey(picks.map((p) => p.optionValueId));
        const existing = await tx.catalogVariant.findFirst({ where: { entityId, optionKey: key }, select: { sku: true } });
        if (existing) throw conflict(`a variant with this combination of option values already exists (sku ${existing.sku})`);
        const [id] = await insertVariants(tx, ctx, entity, [{ ...input, picks }]);
        await emitUpdated(tx, ctx, entityId, ['variants']);
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        return (await variantViews(tx, ctx, [id!]))[0]!;
      }),
    SKU_CONFLICT,
  );
}

// ── quick: upsert axes inline, then find or create the one variant ──

export interface VariantQuickInput extends NewVariant {
  options: Record<string, string>;
}

export async function quickVariant(ctx: CatalogCtx, entityId: string, input: VariantQuickInput): Promise<{ variant: VariantView; created: boolean }> {
  return mapWriteErrors(
    'Variant',
    () =>
      inTransaction(ctx, async (tx) => {
        const entity = await lockEntity(tx, ctx, entityId);
        const axes = Object.entries(input.options).map(([name, value]) => [name, [value]] as [string, string[]]);
        const { types, changed } = await upsertAxes(tx, ctx, entityId, axes);
        const picks = ordered(types, pickByName(types, input.options, 'options'));
        const key = optionKey(picks.map((p) => p.optionValueId));
        const existing = await tx.catalogVariant.findFirst({ where: { entityId, optionKey: key }, select: { id: true, sku: true } });
        if (existing) {
          if (input.sku !== undefined && input.sku !== existing.sku) {
            throw conflict(`the variant with these options exists with sku ${existing.sku}, not ${input.sku}`);
          }
          if (changed) await emitUpdated(tx, ctx, entityId, ['optionTypes']);
          // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
          return { variant: (await variantViews(tx, ctx, [existing.id]))[0]!, created: false };
        }
        const [id] = await insertVariants(tx, ctx, entity, [{ ...input, picks }]);
        await emitUpdated(tx, ctx, entityId, changed ? ['optionTypes', 'variants'] : ['variants']);
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        return { variant: (await variantViews(tx, ctx, [id!]))[0]!, created: true };
      }),
    SKU_CONFLICT,
  );
}

// ── matrices: generate (existing axes) and bulk (axes given inline) ──

export interface VariantMatrix {
  created: VariantView[];
  existing: VariantView[];
}

function cartesian(axes: Pick1[][]): Pick1[][] {
  return axes.reduce<Pick1[][]>((combos, values) => combos.flatMap((combo) => values.map((value) => [...combo, value])), [[]]);
}

function assertMatrixSize(axes: Pick1[][], field: string): void {
  const size = axes.reduce((n, values) => n * values.length, 1);
  if (size > MAX_MATRIX) throw invalid(field, `the matrix would have ${size} combinations; at most ${MAX_MATRIX} per call`);
}

async function fillMatrix(
  tx: Tx,
  ctx: CatalogCtx,
  entity: { id: string; slug: string },
  combos: Pick1[][],
  skuPrefix: string | undefined,
  typesChanged: boolean,
): Promise<VariantMatrix> {
  const present = await tx.catalogVariant.findMany({ where: { organizationId: ctx.organization.id, entityId: entity.id }, select: { id: true, optionKey: true } });
  const byKey = new Map(present.map((v) => [v.optionKey, v.id]));
  const existingIds: string[] = [];
  const missing: Array<{ picks: Pick1[] }> = [];
  for (const picks of combos) {
    const id = byKey.get(optionKey(picks.map((p) => p.optionValueId)));
    if (id) existingIds.push(id);
    else missing.push({ picks });
  }
  const createdIds = await insertVariants(tx, ctx, entity, missing, skuPrefix);
  const changes = [...(typesChanged ? ['optionTypes'] : []), ...(createdIds.length ? ['variants'] : [])];
  if (changes.length) await emitUpdated(tx, ctx, entity.id, changes);
  const views = await variantViews(tx, ctx, [...createdIds, ...existingIds]);
  const createdSet = new Set(createdIds);
  return { created: views.filter((v) => createdSet.has(v.id)), existing: views.filter((v) => !createdSet.has(v.id)) };
}

/** Every combination of the values of the given option types (default: all of the entity's). */
export async function generateVariants(ctx: CatalogCtx, entityId: string, input: { optionTypeIds?: string[]; skuPrefix?: string }): Promise<VariantMatrix> {
  return mapWriteErrors(
    'Variant',
    () =>
      inTransaction(ctx, async (tx) => {
        const entity = await lockEntity(tx, ctx, entityId);
        const types = await loadTypes(tx, ctx, entityId);
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        const chosen = input.optionTypeIds ? types.filter((t) => input.optionTypeIds!.includes(t.id)) : types;
        const issues: FieldIssue[] = (input.optionTypeIds ?? [])
          .map((id, index) => (types.some((t) => t.id === id) ? null : { field: `optionTypeIds.${index}`, message: 'not an option type of this entity' }))
          .filter((issue): issue is FieldIssue => issue !== null);
        if (!chosen.length && !issues.length) issues.push({ field: 'optionTypeIds', message: 'the entity has no option types to generate from' });
        for (const type of chosen) if (!type.values.length) issues.push({ field: 'optionTypeIds', message: `option type ${type.name} has no values` });
        if (issues.length) throw validationFailed(issues);
        const axes = chosen.map((t) => t.values.map((v) => ({ optionTypeId: t.id, optionValueId: v.id, value: v.value })));
        assertMatrixSize(axes, 'optionTypeIds');
        return fillMatrix(tx, ctx, entity, cartesian(axes), input.skuPrefix, false);
      }),
    SKU_CONFLICT,
  );
}

/** Upserts the axes and their values inline, then creates every missing combination. */
export async function bulkVariants(ctx: CatalogCtx, entityId: string, input: { axes: Record<string, string[]>; skuPrefix?: string }): Promise<VariantMatrix> {
  const entries = Object.entries(input.axes);
  const issues: FieldIssue[] = [];
  if (!entries.length) issues.push({ field: 'axes', message: 'needs at least one axis' });
  if (entries.length > MAX_AXES) issues.push({ field: 'axes', message: `at most ${MAX_AXES} axes` });
  for (const [name, values] of entries) {
    if (!values.length) issues.push({ field: `axes.${name}`, message: 'needs at least one value' });
    if (values.length > MAX_VALUES_PER_AXIS) issues.push({ field: `axes.${name}`, message: `at most ${MAX_VALUES_PER_AXIS} values` });
    if (new Set(values).size !== values.length) issues.push({ field: `axes.${name}`, message: 'must not repeat a value' });
  }
  if (issues.length) throw validationFailed(issues);
  const size = entries.reduce((n, [, values]) => n * values.length, 1);
  if (size > MAX_MATRIX) throw invalid('axes', `the matrix would have ${size} combinations; at most ${MAX_MATRIX} per call`);
  return mapWriteErrors(
    'Variant',
    () =>
      inTransaction(ctx, async (tx) => {
        const entity = await lockEntity(tx, ctx, entityId);
        const { types, changed } = await upsertAxes(tx, ctx, entityId, entries);
        const axes = ordered(
          types,
          // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
          entries.map(([name]) => ({ optionTypeId: types.find((t) => t.name === name)!.id, optionValueId: '', value: '' })),
        ).map(({ optionTypeId }) => {
          // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
          const type = types.find((t) => t.id === optionTypeId)!;
          // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
          return input.axes[type.name]!.map((value) => {
            // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
            const found = type.values.find((v) => v.value === value)!;
            return { optionTypeId, optionValueId: found.id, value };
          });
        });
        return fillMatrix(tx, ctx, entity, cartesian(axes), input.skuPrefix, changed);
      }),
    SKU_CONFLICT,
  );
}

// ── one variant's own fields ──

export interface VariantUpdateInput {
  sku?: string;
  title?: string | null;
  status?: VariantStatus;
  taxClassId?: string | null;
  metadata?: Json;
  weightGrams?: number | null;
  lengthMm?: number | null;
  widthMm?: number | null;
  heightMm?: number | null;
}

async function variantEntity(ctx: CatalogCtx, variantId: string): Promise<string> {
  const variant = await ctx.db.catalogVariant.findFirst({ where: { id: variantId, organizationId: ctx.organization.id }, select: { entityId: true } });
  if (!variant) throw notFound('Variant');
  return variant.entityId;
}

/** Changes a variant's SKU, title, status, tax class or metadata (its option values are its identity). */
export async function updateVariant(ctx: CatalogCtx, variantId: string, input: VariantUpdateInput): Promise<VariantView> {
  const entityId = await variantEntity(ctx, variantId);
  await assertTaxClass(ctx.db, ctx, input.taxClassId);
  return mapWriteErrors(
    'Variant',
    () =>
      inTransaction(ctx, async (tx) => {
        await lockEntity(tx, ctx, entityId);
        await tx.catalogVariant.update({
          where: { id: variantId, organizationId: ctx.organization.id },
          data: {
            ...(input.sku !== undefined ? { sku: input.sku } : {}),
            ...(input.title !== undefined ? { title: input.title } : {}),
            ...(input.status !== undefined ? { status: input.status } : {}),
            ...(input.taxClassId !== undefined ? { taxClassId: input.taxClassId } : {}),
            ...(input.metadata !== undefined ? { metadata: input.metadata as Prisma.InputJsonObject } : {}),
            ...(input.weightGrams !== undefined ? { weightGrams: input.weightGrams } : {}),
            ...(input.lengthMm !== undefined ? { lengthMm: input.lengthMm } : {}),
            ...(input.widthMm !== undefined ? { widthMm: input.widthMm } : {}),
            ...(input.heightMm !== undefined ? { heightMm: input.heightMm } : {}),
          },
        });
        await emitUpdated(tx, ctx, entityId, ['variants']);
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        return (await variantViews(tx, ctx, [variantId]))[0]!;
      }),
    SKU_CONFLICT,
  );
}

export async function deleteVariant(ctx: CatalogCtx, variantId: string): Promise<VariantView> {
  const entityId = await variantEntity(ctx, variantId);
  return mapWriteErrors('Variant', () =>
    inTransaction(ctx, async (tx) => {
      await lockEntity(tx, ctx, entityId);
      const [view] = await variantViews(tx, ctx, [variantId]);
      if (!view) throw notFound('Variant');
      await tx.catalogVariant.delete({ where: { id: variantId, organizationId: ctx.organization.id } });
      await emitUpdated(tx, ctx, entityId, ['variants']);
      return view;
    }),
  );
}
