// Shipping methods: a way to ship (or, kind `pickup`, to collect at a warehouse) within one zone,
// priced by its calculator, with eligibility rules (subtotal range, max weight, customer groups).
// References (zone, tax class, warehouse) must be the organization's own: 422 naming the field.
import { conflict, notFound, validationFailed, type FieldIssue } from '../../errors.js';
import { uniqueViolation } from '../../db/errors.js';
import { withTransaction, type ServiceContext } from '../../db/transaction.js';
import type { Prisma, ShippingMethod } from '../../generated/prisma/client.js';
import type { Tx } from '../../db/client.js';
import { toCalculator, type Calculator, type CalculatorInput } from './calculators.js';

export const METHOD_KINDS = ['delivery', 'pickup'] as const;
export type MethodKind = (typeof METHOD_KINDS)[number];

export interface MethodView {
  id: string;
  zoneId: string;
  name: string;
  code: string;
  kind: MethodKind;
  isActive: boolean;
  taxClassId: string | null;
  warehouseId: string | null;
  minDays: number | null;
  maxDays: number | null;
  calculator: Calculator;
  minSubtotal: number | null;
  maxSubtotal: number | null;
  maxWeightGrams: number | null;
  customerGroupIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

const num = (v: bigint | null) => (v === null ? null : Number(v));

export function methodView(row: ShippingMethod): MethodView {
  return {
    id: row.id,
    zoneId: row.zoneId,
    name: row.name,
    code: row.code,
    kind: row.kind as MethodKind,
    isActive: row.isActive,
    taxClassId: row.taxClassId,
    warehouseId: row.warehouseId,
    minDays: row.minDays,
    maxDays: row.maxDays,
    calculator: row.calculator as unknown as Calculator,
    minSubtotal: num(row.minSubtotal),
    maxSubtotal: num(row.maxSubtotal),
    maxWeightGrams: row.maxWeightGrams,
    customerGroupIds: row.customerGroupIds,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface MethodInput {
  zoneId: string;
  name: string;
  code: string;
  kind?: MethodKind;
  isActive?: boolean;
  taxClassId?: string | null;
  warehouseId?: string | null;
  minDays?: number | null;
  maxDays?: number | null;
  calculator: CalculatorInput;
  minSubtotal?: number | null;
  maxSubtotal?: number | null;
  maxWeightGrams?: number | null;
  customerGroupIds?: string[] | null;
}

function codeConflict(error: unknown, code: string | undefined): never {
  if (uniqueViolation(error) !== null) throw conflict(`a shipping method with code ${code} already exists`, { fields: ['code'] });
  throw error;
}

/** The referenced rows must exist in this organization; a pickup method needs its warehouse. */
async function checkReferences(tx: Tx, org: string, m: Omit<MethodView, 'id' | 'createdAt' | 'updatedAt' | 'calculator'>): Promise<void> {
  const issues: FieldIssue[] = [];
  const [zone, taxClass, warehouse] = await Promise.all([
    tx.shippingZone.findFirst({ where: { id: m.zoneId, organizationId: org }, select: { id: true } }),
    m.taxClassId ? tx.taxClass.findFirst({ where: { id: m.taxClassId, organizationId: org }, select: { id: true } }) : null,
    m.warehouseId ? tx.warehouse.findFirst({ where: { id: m.warehouseId, organizationId: org }, select: { id: true } }) : null,
  ]);
  if (!zone) issues.push({ field: 'zoneId', message: 'no such shipping zone in this organization' });
  if (m.taxClassId && !taxClass) issues.push({ field: 'taxClassId', message: 'no such tax class in this organization' });
  if (m.warehouseId && !warehouse) issues.push({ field: 'warehouseId', message: 'no such warehouse in this organization' });
  if (m.kind === 'pickup' && !m.warehouseId) issues.push({ field: 'warehouseId', message: 'a pickup method needs the warehouse the order is collected from' });
  if (m.kind === 'delivery' && m.warehouseId) issues.push({ field: 'warehouseId', message: 'only pickup methods name a warehouse' });
  if (m.minDays !== null && m.maxDays !== null && m.minDays > m.maxDays) issues.push({ field: 'maxDays', message: 'must not be less than minDays' });
  if (m.minSubtotal !== null && m.maxSubtotal !== null && m.minSubtotal > m.maxSubtotal) issues.push({ field: 'maxSubtotal', message: 'must not be less than minSubtotal' });
  if (issues.length) throw validationFailed(issues);
}

function data(m: Omit<MethodView, 'id' | 'createdAt' | 'updatedAt'>) {
  return {
    zoneId: m.zoneId,
    name: m.name,
    code: m.code,
    kind: m.kind,
    isActive: m.isActive,
    taxClassId: m.taxClassId,
    warehouseId: m.warehouseId,
    minDays: m.minDays,
    maxDays: m.maxDays,
    calculator: m.calculator as unknown as Prisma.InputJsonValue,
    minSubtotal: m.minSubtotal === null ? null : BigInt(m.minSubtotal),
    maxSubtotal: m.maxSubtotal === null ? null : BigInt(m.maxSubtotal),
    maxWeightGrams: m.maxWeightGrams,
    customerGroupIds: m.customerGroupIds,
  };
}

export async function listMethods(ctx: ServiceContext, filter: { zoneId?: string } = {}): Promise<MethodView[]> {
  const rows = await ctx.db.shippingMethod.findMany({
    where: { organizationId: ctx.organization.id, ...(filter.zoneId ? { zoneId: filter.zoneId } : {}) },
    orderBy: [{ name: 'asc' }, { code: 'asc' }],
  });
  return rows.map(methodView);
}

export async function findMethod(ctx: ServiceContext, id: string): Promise<MethodView | null> {
  const row = await ctx.db.shippingMethod.findFirst({ where: { id, organizationId: ctx.organization.id } });
  return row ? methodView(row) : null;
}

export async function getMethod(ctx: ServiceContext, id: string): Promise<MethodView> {
  const found = await findMethod(ctx, id);
  if (!found) throw notFound('Shipping method');
  return found;
}

export async function createMethod(ctx: ServiceContext, input: MethodInput): Promise<MethodView> {
  const m = {
    zoneId: input.zoneId,
    name: input.name,
    code: input.code,
    kind: input.kind ?? 'delivery',
    isActive: input.isActive ?? true,
    taxClassId: input.taxClassId ?? null,
    warehouseId: input.warehouseId ?? null,
    minDays: input.minDays ?? null,
    maxDays: input.maxDays ?? null,
    calculator: toCalculator(input.calculator),
    minSubtotal: input.minSubtotal ?? null,
    maxSubtotal: input.maxSubtotal ?? null,
    maxWeightGrams: input.maxWeightGrams ?? null,
    customerGroupIds: [...new Set(input.customerGroupIds ?? [])],
  };
  try {
    return await withTransaction(ctx, async (tx) => {
      await checkReferences(tx, ctx.organization.id, m);
      return methodView(await tx.shippingMethod.create({ data: { organizationId: ctx.organization.id, ...data(m) } }));
    });
  } catch (error) {
    return codeConflict(error, input.code);
  }
}

export async function updateMethod(ctx: ServiceContext, id: string, patch: Partial<MethodInput>): Promise<MethodView> {
  try {
    return await withTransaction(ctx, async (tx) => {
      const row = await tx.shippingMethod.findFirst({ where: { id, organizationId: ctx.organization.id } });
      if (!row) throw notFound('Shipping method');
      const current = methodView(row);
      const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<MethodInput>;
      const next = {
        ...current,
        ...defined,
        calculator: defined.calculator ? toCalculator(defined.calculator) : current.calculator,
        customerGroupIds: defined.customerGroupIds !== undefined ? [...new Set(defined.customerGroupIds ?? [])] : current.customerGroupIds,
      } as MethodView;
      for (const key of ['taxClassId', 'warehouseId', 'minDays', 'maxDays', 'minSubtotal', 'maxSubtotal', 'maxWeightGrams'] as const) {
        if ((next as unknown as Record<string, unknown>)[key] === undefined) (next as unknown as Record<string, unknown>)[key] = null;
      }
      await checkReferences(tx, ctx.organization.id, next);
      return methodView(await tx.shippingMethod.update({ where: { id }, data: data(next) }));
    });
  } catch (error) {
    return codeConflict(error, patch.code);
  }
}

export async function deleteMethod(ctx: ServiceContext, id: string): Promise<MethodView> {
  return withTransaction(ctx, async (tx) => {
    const row = await tx.shippingMethod.findFirst({ where: { id, organizationId: ctx.organization.id } });
    if (!row) throw notFound('Shipping method');
    await tx.shippingMethod.delete({ where: { id } });
    return methodView(row);
  });
}
