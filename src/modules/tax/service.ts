// Tax classes: a named rate in basis points (2000 = 20 %). At most one default class per
// organization: making a class the default unsets the previous one in the same transaction (a
// partial unique index catches a concurrent second default, answered 409).
//
// The per-line resolver the checkout calls is in resolver.ts.
import { conflict, notFound } from '../../errors.js';
import { uniqueViolation } from '../../db/errors.js';
import { withTransaction, type ServiceContext } from '../../db/transaction.js';
import type { TaxClass } from '../../generated/prisma/client.js';

export interface TaxClassView {
  id: string;
  name: string;
  description: string | null;
  rateBps: number;
  isDefault: boolean;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function taxClassView(row: TaxClass): TaxClassView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    rateBps: row.rateBps,
    isDefault: row.isDefault,
    isActive: row.isActive,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface TaxClassInput {
  name: string;
  description?: string | null;
  rateBps: number;
  isDefault?: boolean;
  isActive?: boolean;
}

function nameConflict(error: unknown, name: string | undefined): never {
  const unique = uniqueViolation(error);
  if (unique !== null) {
    if (/name/.test(unique)) throw conflict(`a tax class named ${name} already exists`, { fields: ['name'] });
    throw conflict('another tax class was made the default at the same time; retry', { fields: ['isDefault'] });
  }
  throw error;
}

export async function listTaxClasses(ctx: ServiceContext): Promise<TaxClassView[]> {
  const rows = await ctx.db.taxClass.findMany({ where: { organizationId: ctx.organization.id }, orderBy: [{ name: 'asc' }] });
  return rows.map(taxClassView);
}

export async function findTaxClass(ctx: ServiceContext, id: string): Promise<TaxClassView | null> {
  const row = await ctx.db.taxClass.findFirst({ where: { id, organizationId: ctx.organization.id } });
  return row ? taxClassView(row) : null;
}

export async function createTaxClass(ctx: ServiceContext, input: TaxClassInput): Promise<TaxClassView> {
  try {
    return await withTransaction(ctx, async (tx) => {
      if (input.isDefault) await tx.taxClass.updateMany({ where: { organizationId: ctx.organization.id, isDefault: true }, data: { isDefault: false } });
      const row = await tx.taxClass.create({
        data: {
          organizationId: ctx.organization.id,
          name: input.name,
          description: input.description ?? null,
          rateBps: input.rateBps,
          isDefault: input.isDefault ?? false,
          isActive: input.isActive ?? true,
        },
      });
      return taxClassView(row);
    });
  } catch (error) {
    return nameConflict(error, input.name);
  }
}

export async function updateTaxClass(ctx: ServiceContext, id: string, patch: Partial<TaxClassInput>): Promise<TaxClassView> {
  try {
    return await withTransaction(ctx, async (tx) => {
      const existing = await tx.taxClass.findFirst({ where: { id, organizationId: ctx.organization.id }, select: { id: true } });
      if (!existing) throw notFound('Tax class');
      if (patch.isDefault) {
        await tx.taxClass.updateMany({ where: { organizationId: ctx.organization.id, isDefault: true, id: { not: id } }, data: { isDefault: false } });
      }
      const row = await tx.taxClass.update({
        where: { id },
        data: {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(patch.rateBps !== undefined ? { rateBps: patch.rateBps } : {}),
          ...(patch.isDefault !== undefined ? { isDefault: patch.isDefault } : {}),
          ...(patch.isActive !== undefined ? { isActive: patch.isActive } : {}),
        },
      });
      return taxClassView(row);
    });
  } catch (error) {
    return nameConflict(error, patch.name);
  }
}

/**
 * Deletes a class no entity or variant refers to; one still in use is 409 (deactivate it, or
 * move the entities to another class first), so no line silently loses its rate.
 */
export async function deleteTaxClass(ctx: ServiceContext, id: string): Promise<TaxClassView> {
  return withTransaction(ctx, async (tx) => {
    const rows = await tx.$queryRaw<Array<{ id: string; entities: number; variants: number }>>`
      select t.id,
        (select count(*)::int from catalog_entities e where e.organization_id = t.organization_id and e.tax_class_id = t.id) as entities,
        (select count(*)::int from catalog_variants v where v.organization_id = t.organization_id and v.tax_class_id = t.id) as variants
      from tax_classes t where t.id = ${id}::uuid and t.organization_id = ${ctx.organization.id}::uuid
      for update of t`;
    const found = rows[0];
    if (!found) throw notFound('Tax class');
    if (found.entities || found.variants) {
      throw conflict(`the tax class is used by ${found.entities} entities and ${found.variants} variants; reassign them or deactivate the class`, {
        entities: found.entities,
        variants: found.variants,
      });
    }
    return taxClassView(await tx.taxClass.delete({ where: { id } }));
  });
}
