// Warehouses. `code` is unique per organization. Each organization has at most one default
// warehouse: the first warehouse created becomes it, `isDefault: true` moves it, and stock
// written without a warehouse (adjustments, the zero stock seeded for new variants) goes there;
// when none exists yet, one named "Default warehouse" (code `default`) is created on first need.
import { conflict } from '../../errors.js';
import { uniqueViolation } from '../../db/errors.js';
import { withTransaction, type DbClient, type ServiceContext } from '../../db/transaction.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { paginate, type ListCtx, type Page, type PageInput } from '../../graphql/pagination.js';
import { warehouseView, type WarehouseView } from './views.js';

export const DEFAULT_WAREHOUSE = { name: 'Default warehouse', code: 'default' } as const;

export interface WarehouseInput {
  name: string;
  code: string;
  address?: Record<string, unknown> | null;
  isDefault?: boolean;
}

export async function createWarehouse(ctx: ServiceContext, input: WarehouseInput): Promise<WarehouseView> {
  try {
    return await withTransaction(ctx, async (tx) => {
      const org = ctx.organization.id;
      // Serializes default changes of one organization (and a first warehouse racing the
      // zero-stock hook's default), so the partial unique index is never the one to decide.
      await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`warehouse-default:${org}`}, 0))`;
      const hasDefault = (await tx.warehouse.count({ where: { organizationId: org, isDefault: true } })) > 0;
      const isDefault = input.isDefault ?? !hasDefault;
      if (isDefault && hasDefault) await tx.warehouse.updateMany({ where: { organizationId: org, isDefault: true }, data: { isDefault: false } });
      const row = await tx.warehouse.create({
        data: { organizationId: org, name: input.name, code: input.code, address: (input.address ?? undefined) as Prisma.InputJsonObject | undefined, isDefault },
      });
      return warehouseView(row);
    });
  } catch (error) {
    if (uniqueViolation(error) !== null) throw conflict(`a warehouse with code ${input.code} already exists`, { fields: ['code'] });
    throw error;
  }
}

export async function listWarehouses(ctx: ServiceContext & ListCtx, input: { page: number; limit: number } & PageInput): Promise<Page<WarehouseView>> {
  const where = { organizationId: ctx.organization.id };
  return paginate(ctx, input, {
    list: 'warehouses',
    model: 'Warehouse',
    where,
    orderBy: [{ isDefault: 'desc' as const }, { createdAt: 'asc' as const }, { id: 'asc' as const }],
    findMany: (args) => ctx.db.warehouse.findMany(args),
    count: (w) => ctx.db.warehouse.count({ where: w }),
    view: (rows) => rows.map(warehouseView),
  });
}

/**
 * The organization's default warehouse id, created when it has none. Safe against concurrent
 * callers: the advisory lock makes the check-then-create one step per organization.
 */
export async function ensureDefaultWarehouse(tx: DbClient, organizationId: string): Promise<string> {
  const found = await tx.warehouse.findFirst({ where: { organizationId, isDefault: true }, select: { id: true } });
  if (found) return found.id;
  await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`warehouse-default:${organizationId}`}, 0))`;
  const again = await tx.warehouse.findFirst({ where: { organizationId, isDefault: true }, select: { id: true } });
  if (again) return again.id;
  // A warehouse coded `default` created with isDefault: false becomes the default rather than
  // colliding on the code.
  const byCode = await tx.warehouse.findFirst({ where: { organizationId, code: DEFAULT_WAREHOUSE.code }, select: { id: true } });
  if (byCode) {
    await tx.warehouse.update({ where: { id: byCode.id }, data: { isDefault: true } });
    return byCode.id;
  }
  const created = await tx.warehouse.create({ data: { organizationId, ...DEFAULT_WAREHOUSE, isDefault: true }, select: { id: true } });
  return created.id;
}
