// The shapes the catalog hands out (GraphQL types and REST bodies are built from these), the
// Prisma `include` each one needs, and the row → view mappers. No queries here.
import type {
  CatalogAttributes,
  CatalogBrand,
  CatalogCategory,
  CatalogCustomField,
  CatalogEntity,
  CatalogFieldDefinition,
  CatalogFieldOwnership,
  Prisma,
} from '../../generated/prisma/client.js';

type Json = Record<string, unknown>;

export interface CatalogEntityView {
  id: string;
  type: string;
  slug: string;
  status: string;
  metadata: Json;
  taxClassId: string | null;
  sourceStoreId: string | null;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Embeds loaded through `include`, keyed by include name; absent = not asked for. */
  included: Record<string, unknown>;
}

export function entityView(row: CatalogEntity, included: Record<string, unknown> = {}): CatalogEntityView {
  return {
    id: row.id,
    type: row.type,
    slug: row.slug,
    status: row.status,
    metadata: (row.metadata ?? {}) as Json,
    taxClassId: row.taxClassId,
    sourceStoreId: row.sourceStoreId,
    publishedAt: row.publishedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    included,
  };
}

/** The entity as event payloads carry it (JSON: dates as ISO strings). */
export interface CatalogEntityPayload {
  id: string;
  type: string;
  slug: string;
  status: string;
  metadata: Json;
  taxClassId: string | null;
  sourceStoreId: string | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function entityPayload(row: CatalogEntity): CatalogEntityPayload {
  return {
    id: row.id,
    type: row.type,
    slug: row.slug,
    status: row.status,
    metadata: (row.metadata ?? {}) as Json,
    taxClassId: row.taxClassId,
    sourceStoreId: row.sourceStoreId,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type AttributesView = Omit<CatalogAttributes, 'organizationId'>;

/** `storeLocale`: the column the attributes batch reads beside the rows (store-locale.ts), not part of the view. */
export function attributesView(row: CatalogAttributes & { storeLocale?: unknown }): AttributesView {
  const { organizationId: _org, storeLocale: _storeLocale, ...view } = row;
  return view;
}

export interface CategoryView {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  parentId: string | null;
  sortOrder: number;
  metadata: Json;
  createdAt: Date;
  updatedAt: Date;
}

export function categoryView(row: CatalogCategory): CategoryView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    parentId: row.parentId,
    sortOrder: row.sortOrder,
    metadata: (row.metadata ?? {}) as Json,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface BrandView {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  logoUrl: string | null;
  websiteUrl: string | null;
  sortOrder: number;
  metadata: Json;
  createdAt: Date;
  updatedAt: Date;
}

export function brandView(row: CatalogBrand): BrandView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    logoUrl: row.logoUrl,
    websiteUrl: row.websiteUrl,
    sortOrder: row.sortOrder,
    metadata: (row.metadata ?? {}) as Json,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

// ── options and variants ──

export const OPTION_TYPE_INCLUDE = { values: { orderBy: [{ sortOrder: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }] } } satisfies Prisma.CatalogOptionTypeInclude;
type OptionTypeRow = Prisma.CatalogOptionTypeGetPayload<{ include: typeof OPTION_TYPE_INCLUDE }>;

export interface OptionValueView {
  id: string;
  optionTypeId: string;
  value: string;
  label: string | null;
  sortOrder: number;
}

export interface OptionTypeView {
  id: string;
  entityId: string;
  name: string;
  label: string | null;
  sortOrder: number;
  createdAt: Date;
  values: OptionValueView[];
}

export function optionValueView(row: { id: string; optionTypeId: string; value: string; label: string | null; sortOrder: number }): OptionValueView {
  return { id: row.id, optionTypeId: row.optionTypeId, value: row.value, label: row.label, sortOrder: row.sortOrder };
}

export function optionTypeView(row: OptionTypeRow): OptionTypeView {
  return {
    id: row.id,
    entityId: row.entityId,
    name: row.name,
    label: row.label,
    sortOrder: row.sortOrder,
    createdAt: row.createdAt,
    values: row.values.map(optionValueView),
  };
}

export interface VariantOptionView {
  optionTypeId: string;
  optionName: string;
  optionValueId: string;
  value: string;
}

export interface VariantView {
  id: string;
  entityId: string;
  sku: string;
  title: string | null;
  /** active | draft | archived: only active variants are sold and shown to storefront readers. */
  status: string;
  taxClassId: string | null;
  /** Shipping weight and dimensions (shipping calculators and eligibility); null = not given. */
  weightGrams: number | null;
  lengthMm: number | null;
  widthMm: number | null;
  heightMm: number | null;
  metadata: Json;
  optionValues: VariantOptionView[];
  createdAt: Date;
  updatedAt: Date;
}

// ── custom fields ──

export type FieldDefinitionView = Omit<CatalogFieldDefinition, 'organizationId'>;

export function fieldDefinitionView(row: CatalogFieldDefinition): FieldDefinitionView {
  const { organizationId: _org, ...view } = row;
  return view;
}

export type CustomFieldView = Omit<CatalogCustomField, 'organizationId'>;

export function customFieldView(row: CatalogCustomField): CustomFieldView {
  const { organizationId: _org, ...view } = row;
  return view;
}

export interface ProposalView extends CustomFieldView {
  entitySlug: string;
  entityType: string;
}

export type FieldOwnershipView = Omit<CatalogFieldOwnership, 'organizationId' | 'scopeKey'>;

export function fieldOwnershipView(row: CatalogFieldOwnership): FieldOwnershipView {
  const { organizationId: _org, scopeKey: _key, ...view } = row;
  return view;
}
