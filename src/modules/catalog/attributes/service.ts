// Localized attributes: title, description, seoTitle and seoDescription per entity and locale
// (default locale en). PUT replaces the locale's row: fields left out become null.
import { notFound } from '../../../errors.js';
import { findReadableEntity } from '../entities/service.js';
import { emitUpdated } from '../events.js';
import { inTransaction, lockEntity, type CatalogCtx } from '../shared.js';
import { attributesView, type AttributesView } from '../views.js';

export interface AttributesInput {
  title?: string | null;
  description?: string | null;
  seoTitle?: string | null;
  seoDescription?: string | null;
}

export async function getAttributes(ctx: CatalogCtx, entityId: string, locale: string): Promise<AttributesView> {
  const entity = await findReadableEntity(ctx, entityId);
  const row = await ctx.db.catalogAttributes.findFirst({ where: { organizationId: ctx.organization.id, entityId: entity.id, locale } });
  if (!row) throw notFound(`Attributes for locale ${locale}`);
  return attributesView(row);
}

export async function setAttributes(ctx: CatalogCtx, entityId: string, locale: string, input: AttributesInput): Promise<AttributesView> {
  const values = {
    title: input.title ?? null,
    description: input.description ?? null,
    seoTitle: input.seoTitle ?? null,
    seoDescription: input.seoDescription ?? null,
  };
  return inTransaction(ctx, async (tx) => {
    const entity = await lockEntity(tx, ctx, entityId);
    const row = await tx.catalogAttributes.upsert({
      where: { entityId_locale: { entityId: entity.id, locale } },
      create: { entityId: entity.id, locale, organizationId: ctx.organization.id, ...values },
      update: values,
    });
    await emitUpdated(tx, ctx, entity.id, [`attributes.${locale}`]);
    return attributesView(row);
  });
}
