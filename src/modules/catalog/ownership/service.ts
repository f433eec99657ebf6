// Field ownership: who owns a field of an entity (platform, store or shared), optionally for
// one store and/or one variant. Channel connectors read it to decide whose edit wins when the
// catalog and a connected store disagree. One row per (entity, fieldPath, storeId, variantId);
// PUT sets the owner of that tuple.
import { inTransaction, invalid, assertSyncAllowed, lockEntity, type CatalogCtx } from '../shared.js';
import { findReadableEntity } from '../entities/service.js';
import { fieldOwnershipView, type FieldOwnershipView } from '../views.js';
import type { CatalogFieldOwner } from '../../../generated/prisma/client.js';

export const OWNERS = ['platform', 'store', 'shared'] as const satisfies readonly CatalogFieldOwner[];

function scopeKey(storeId: string | null, variantId: string | null): string {
  return `${storeId ?? ''}|${variantId ?? ''}`;
}

export async function listOwnership(ctx: CatalogCtx, entityId: string, storeId?: string): Promise<FieldOwnershipView[]> {
  const entity = await findReadableEntity(ctx, entityId);
  const rows = await ctx.db.catalogFieldOwnership.findMany({
    where: { organizationId: ctx.organization.id, entityId: entity.id, ...(storeId ? { storeId } : {}) },
    orderBy: [{ fieldPath: 'asc' }, { storeId: { sort: 'asc', nulls: 'first' } }, { variantId: { sort: 'asc', nulls: 'first' } }],
  });
  return rows.map(fieldOwnershipView);
}

export interface OwnershipInput {
  fieldPath: string;
  owner: CatalogFieldOwner;
  storeId?: string | null;
  variantId?: string | null;
}

export async function setOwnership(ctx: CatalogCtx, entityId: string, input: OwnershipInput): Promise<FieldOwnershipView> {
  const storeId = input.storeId ?? null;
  const variantId = input.variantId ?? null;
  return inTransaction(ctx, async (tx) => {
    const entity = await lockEntity(tx, ctx, entityId);
    assertSyncAllowed(ctx, entity, 'setting field ownership');
    if (variantId) {
      const variant = await tx.catalogVariant.findFirst({ where: { id: variantId, entityId, organizationId: ctx.organization.id }, select: { id: true } });
      if (!variant) throw invalid('variantId', 'not a variant of this entity');
    }
    const key = scopeKey(storeId, variantId);
    const row = await tx.catalogFieldOwnership.upsert({
      where: { entityId_fieldPath_scopeKey: { entityId, fieldPath: input.fieldPath, scopeKey: key } },
      create: { organizationId: ctx.organization.id, entityId, fieldPath: input.fieldPath, owner: input.owner, storeId, variantId, scopeKey: key },
      update: { owner: input.owner },
    });
    return fieldOwnershipView(row);
  });
}
