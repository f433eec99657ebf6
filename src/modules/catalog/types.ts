// GraphQL output types of the catalog. REST bodies are the same objects (sofa selects every
// field). Embeds on CatalogEntity are null unless the read's `include` named them.
import { isGiftCardType } from '../gift-cards/product.js';
import { builder } from '../../graphql/builder.js';
import { includedValue } from './include.js';
import { embedField } from '../../graphql/cost.js';
import type { RequestContext } from '../../context.js';
import type {
  AttributesView,
  BrandView,
  CatalogEntityView,
  CategoryView,
  CustomFieldView,
  FieldDefinitionView,
  FieldOwnershipView,
  OptionTypeView,
  OptionValueView,
  ProposalView,
  VariantOptionView,
  VariantView,
} from './views.js';
import { VARIANT_STATUSES, type VariantMatrix } from './variants/service.js';
import { defineEnum } from '../../graphql/enums.js';
import { ENTITY_STATUSES } from './entities/service.js';
import { FIELD_TYPES } from './custom-fields/definitions.service.js';
import { OWNERS } from './ownership/service.js';

type Json = Record<string, unknown>;

export const CatalogEntityStatusEnum = defineEnum('CatalogEntityStatus', ENTITY_STATUSES, 'Lifecycle of a catalog entity.');
export const CatalogVariantStatusEnum = defineEnum(
  'CatalogVariantStatus',
  VARIANT_STATUSES,
  'Lifecycle of a variant: only active variants are sold and shown to callers without catalog:read:unpublished.',
);
export const CatalogFieldTypeEnum = defineEnum('CatalogFieldType', FIELD_TYPES, 'Value type of a custom field.');
export const CatalogFieldOwnerEnum = defineEnum('CatalogFieldOwner', OWNERS, 'Who owns a field of an entity.');
export const CatalogCustomFieldStatusEnum = defineEnum(
  'CatalogCustomFieldStatus',
  ['proposed', 'approved', 'rejected', 'superseded'] as const,
  'Review state of a custom-field value.',
);

export const CatalogAttributesRef = builder.objectRef<AttributesView>('CatalogAttributes').implement({
  description: 'Localized texts of an entity for one locale.',
  fields: (t) => ({
    entityId: t.expose('entityId', { type: 'UUID' }),
    locale: t.exposeString('locale', { description: 'BCP 47 locale, e.g. en or de-DE' }),
    title: t.exposeString('title', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    seoTitle: t.exposeString('seoTitle', { nullable: true }),
    seoDescription: t.exposeString('seoDescription', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const CatalogCategoryRef = builder.objectRef<CategoryView>('CatalogCategory').implement({
  description: 'A node of the category tree.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    name: t.exposeString('name'),
    slug: t.exposeString('slug', { description: 'Unique per organization' }),
    description: t.exposeString('description', { nullable: true }),
    parentId: t.expose('parentId', { type: 'UUID', nullable: true, description: 'Parent category; null for a root' }),
    sortOrder: t.exposeInt('sortOrder', { description: 'Ascending order among siblings' }),
    metadata: t.expose('metadata', { type: 'JSONObject' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const CatalogBrandRef = builder.objectRef<BrandView>('CatalogBrand').implement({
  description: 'A brand entities can belong to.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    name: t.exposeString('name'),
    slug: t.exposeString('slug', { description: 'Unique per organization' }),
    description: t.exposeString('description', { nullable: true }),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    websiteUrl: t.exposeString('websiteUrl', { nullable: true }),
    sortOrder: t.exposeInt('sortOrder'),
    metadata: t.expose('metadata', { type: 'JSONObject' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const CatalogOptionValueRef = builder.objectRef<OptionValueView>('CatalogOptionValue').implement({
  description: 'One value of an option type (L, red).',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    optionTypeId: t.expose('optionTypeId', { type: 'UUID' }),
    value: t.exposeString('value'),
    label: t.exposeString('label', { nullable: true }),
    sortOrder: t.exposeInt('sortOrder'),
  }),
});

export const CatalogOptionTypeRef = builder.objectRef<OptionTypeView>('CatalogOptionType').implement({
  description: 'An option axis of an entity (size, color) with its values.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    name: t.exposeString('name', { description: 'Unique per entity' }),
    label: t.exposeString('label', { nullable: true }),
    sortOrder: t.exposeInt('sortOrder'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    values: t.expose('values', { type: [CatalogOptionValueRef] }),
  }),
});

export const CatalogVariantOptionRef = builder.objectRef<VariantOptionView>('CatalogVariantOption').implement({
  description: 'The value a variant takes on one option type.',
  fields: (t) => ({
    optionTypeId: t.expose('optionTypeId', { type: 'UUID' }),
    optionName: t.exposeString('optionName'),
    optionValueId: t.expose('optionValueId', { type: 'UUID' }),
    value: t.exposeString('value'),
  }),
});

export const CatalogVariantRef = builder.objectRef<VariantView>('CatalogVariant').implement({
  description: 'One sellable combination of option values.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    sku: t.exposeString('sku', { description: 'Unique per organization' }),
    title: t.exposeString('title', { nullable: true, description: 'Defaults to the option values joined by " / "' }),
    status: t.field({
      type: CatalogVariantStatusEnum,
      description: 'Only active variants are sold; draft and archived ones are hidden from callers without catalog:read:unpublished',
      resolve: (v) => v.status as never,
    }),
    taxClassId: t.expose('taxClassId', { type: 'UUID', nullable: true, description: "Tax class of this variant; wins over the entity's" }),
    weightGrams: t.exposeInt('weightGrams', { nullable: true, description: 'Shipping weight in grams (weight-table shipping, max-weight eligibility)' }),
    lengthMm: t.exposeInt('lengthMm', { nullable: true, description: 'Package length in millimetres' }),
    widthMm: t.exposeInt('widthMm', { nullable: true, description: 'Package width in millimetres' }),
    heightMm: t.exposeInt('heightMm', { nullable: true, description: 'Package height in millimetres' }),
    metadata: t.expose('metadata', { type: 'JSONObject' }),
    optionValues: t.expose('optionValues', { type: [CatalogVariantOptionRef] }),
    options: t.field({
      type: 'JSONObject',
      description: 'The option values keyed by option type name: { "size": "L", "color": "red" }',
      resolve: (v) => Object.fromEntries(v.optionValues.map((o) => [o.optionName, o.value])),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const CatalogVariantMatrixRef = builder.objectRef<VariantMatrix>('CatalogVariantMatrix').implement({
  description: 'The variants of a requested option matrix: those this call created and those that already existed.',
  fields: (t) => ({
    created: t.expose('created', { type: [CatalogVariantRef] }),
    existing: t.expose('existing', { type: [CatalogVariantRef] }),
  }),
});

function customFieldFields<T extends CustomFieldView>(t: PothosFieldBuilder<T>) {
  const text = (description: string | undefined, get: (f: T) => string) => t.field({ type: 'String', description, resolve: get });
  const maybe = (description: string | undefined, get: (f: T) => string | null) => t.field({ type: 'String', nullable: true, description, resolve: get });
  return {
    id: t.field({ type: 'UUID', resolve: (f) => f.id }),
    entityId: t.field({ type: 'UUID', resolve: (f) => f.entityId }),
    fieldName: text(undefined, (f) => f.fieldName),
    locale: text(undefined, (f) => f.locale),
    value: t.field({ type: 'JSON', resolve: (f) => f.value }),
    status: t.field({ type: CatalogCustomFieldStatusEnum, resolve: (f) => f.status as never }),
    source: text("platform for direct writes; the proposer's stated source otherwise", (f) => f.source),
    sourceStoreId: maybe(undefined, (f) => f.sourceStoreId),
    note: maybe(undefined, (f) => f.note),
    proposedBy: maybe('User id of the writer or proposer', (f) => f.proposedBy),
    reviewedBy: maybe('User id of who approved or rejected it', (f) => f.reviewedBy),
    reviewedAt: t.field({ type: 'DateTime', nullable: true, resolve: (f) => f.reviewedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (f) => f.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (f) => f.updatedAt }),
  };
}

// Pothos' field builder type for an objectRef of T, as the implement() callback receives it.
type PothosFieldBuilder<T> = Parameters<NonNullable<Parameters<ReturnType<typeof builder.objectRef<T>>['implement']>[0]['fields']>>[0];

export const CatalogCustomFieldRef = builder.objectRef<CustomFieldView>('CatalogCustomField').implement({
  description: 'A custom-field value with its provenance.',
  fields: (t) => customFieldFields(t),
});

export const CatalogCustomFieldProposalRef = builder.objectRef<ProposalView>('CatalogCustomFieldProposal').implement({
  description: "A pending custom-field value in the organization queue: the full custom-field row plus its entity's slug and type.",
  fields: (t) => ({
    ...customFieldFields(t),
    entitySlug: t.exposeString('entitySlug'),
    entityType: t.exposeString('entityType'),
  }),
});

export const CatalogFieldDefinitionRef = builder.objectRef<FieldDefinitionView>('CatalogFieldDefinition').implement({
  description: 'A custom field of an entity type.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    entityType: t.exposeString('entityType'),
    name: t.exposeString('name', { description: 'Key under customFields; unique per organization and entity type' }),
    label: t.exposeString('label', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    type: t.expose('type', { type: CatalogFieldTypeEnum }),
    enumValues: t.exposeStringList('enumValues', { description: 'Allowed values of an enum field' }),
    required: t.exposeBoolean('required'),
    filterable: t.exposeBoolean('filterable', { description: 'Indexed for search filters and facets' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const CatalogFieldOwnershipRef = builder.objectRef<FieldOwnershipView>('CatalogFieldOwnership').implement({
  description: 'Who owns a field of an entity, optionally per store and per variant.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    fieldPath: t.exposeString('fieldPath'),
    owner: t.expose('owner', { type: CatalogFieldOwnerEnum }),
    storeId: t.exposeString('storeId', { nullable: true }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const embed =
  <T>(name: string) =>
  (entity: CatalogEntityView, _args: unknown, ctx: RequestContext) =>
    includedValue<T>(entity, name, ctx);

export const CatalogEntityRef = builder.objectRef<CatalogEntityView>('CatalogEntity').implement({
  description:
    'A catalog entity: a product, a digital download or any other sellable type. Over GraphQL every relation ' +
    'resolves when selected (batched: one SQL statement per relation per level, whatever the page size). Over REST ' +
    'related data is embedded through the `include` argument; an embed that was not asked for is null.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    type: t.exposeString('type', { description: 'For example product, digitalDownload or giftCard (a gift-card product: see isGiftCard)' }),
    isGiftCard: t.boolean({
      description: 'type is giftCard: buying it issues one gift card per unit (the line price as balance) once the order is paid; no stock, no shipping',
      resolve: (e) => isGiftCardType(e.type),
    }),
    slug: t.exposeString('slug', { description: 'Unique per organization' }),
    status: t.field({ type: CatalogEntityStatusEnum, description: 'Only active entities are visible without catalog:read:unpublished', resolve: (e) => e.status as never }),
    metadata: t.field({ type: 'JSONObject', resolve: (e) => e.metadata as Json }),
    taxClassId: t.expose('taxClassId', { type: 'UUID', nullable: true }),
    sourceStoreId: t.exposeString('sourceStoreId', { nullable: true, description: 'Set for entities sourced from a connected store' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true, description: 'First move to active' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    attributes: t.field({
      type: [CatalogAttributesRef],
      nullable: true,
      extensions: embedField('attributes'),
      description: 'Resolved when selected; over REST include=attributes',
      resolve: embed<AttributesView[]>('attributes'),
    }),
    variants: t.field({
      type: [CatalogVariantRef],
      nullable: true,
      extensions: embedField('variants'),
      description: 'Resolved when selected; over REST include=variants',
      resolve: embed<VariantView[]>('variants'),
    }),
    optionTypes: t.field({
      type: [CatalogOptionTypeRef],
      nullable: true,
      extensions: embedField('optionTypes'),
      description: 'Resolved when selected; over REST include=optionTypes',
      resolve: embed<OptionTypeView[]>('optionTypes'),
    }),
    categories: t.field({
      type: [CatalogCategoryRef],
      nullable: true,
      extensions: embedField('categories'),
      description: 'Resolved when selected; over REST include=categories',
      resolve: embed<CategoryView[]>('categories'),
    }),
    brands: t.field({
      type: [CatalogBrandRef],
      nullable: true,
      extensions: embedField('brands'),
      description: 'Resolved when selected; over REST include=brands',
      resolve: embed<BrandView[]>('brands'),
    }),
    customFields: t.field({
      type: [CatalogCustomFieldRef],
      nullable: true,
      extensions: embedField('customFields'),
      description:
        'Resolved when selected; over REST include=customFields: approved values with provenance, one row per field and locale (create and update answers always carry them)',
      resolve: embed<CustomFieldView[]>('customFields'),
    }),
  }),
});
