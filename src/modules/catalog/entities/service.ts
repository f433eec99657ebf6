// Catalog entities: list, get (by UUID or slug), create, update, delete and the status moves.
// Reads need catalog:read; entities that are not active (draft, archived, discontinued) exist
// only for callers with catalog:read:unpublished (404 and filtered out of lists for others).
import { Prisma, type CatalogEntity, type CatalogEntityStatus } from '../../../generated/prisma/client.js';
import { queryRows, statementRows, type Statement } from '../../../db/raw.js';
import { forbidden, notFound, validationFailed } from '../../../errors.js';
import { hasPermission } from '../../../auth/permissions.js';
import { paginate, type ListCtx, type Page, type PageInput } from '../../../graphql/pagination.js';
import { applyCustomFields, validateCustomFields } from '../custom-fields/service.js';
import { emitCreated, emitDeleted, emitUpdated } from '../events.js';
import { parseInclude, withIncludes } from '../include.js';
import { assertTaxClass, inTransaction, PERMISSION, UUID_RE, lockEntity, mapWriteErrors, seesUnpublished, vendorScope, type CatalogCtx } from '../shared.js';
import { runBeforeMetadataWrite } from '../hooks.js';
import type { CatalogEntityView } from '../views.js';
import { GIFT_CARD_ENTITY_TYPE, isGiftCardType } from '../../gift-cards/product.js';

export const ENTITY_STATUSES = ['draft', 'active', 'archived', 'discontinued'] as const satisfies readonly CatalogEntityStatus[];

/** `sort=field:direction` accepts these fields; ties break on id so pages never overlap. */
export const SORT_FIELDS = ['createdAt', 'updatedAt', 'publishedAt', 'slug', 'type', 'status'] as const;
type SortField = (typeof SORT_FIELDS)[number];
const DEFAULT_SORT = 'createdAt:desc';

const SLUG_CONFLICT: Array<[RegExp, string]> = [[/slug/, 'an entity with this slug already exists']];

function orderBy(sort: string | undefined): Prisma.CatalogEntityOrderByWithRelationInput[] {
  const [field, direction = 'asc', ...rest] = (sort || DEFAULT_SORT).split(':');
  if (!SORT_FIELDS.includes(field as SortField) || (direction !== 'asc' && direction !== 'desc') || rest.length) {
    throw validationFailed([{ field: 'sort', message: `must be field:direction with field one of ${SORT_FIELDS.join(', ')} and direction asc or desc` }]);
  }
  const order = direction as 'asc' | 'desc';
  const primary = field === 'publishedAt' ? { publishedAt: { sort: order, nulls: 'last' as const } } : { [field as SortField]: order };
  return [primary, { id: order }];
}

/** A category or brand filter: its UUID, or its slug. */
function membershipFilter(value: string | undefined, relation: 'category' | 'brand'): Prisma.CatalogEntityWhereInput {
  if (!value) return {};
  const target = UUID_RE.test(value) ? { id: value.toLowerCase() } : { slug: value };
  return relation === 'category' ? { categories: { some: { category: target } } } : { brands: { some: { brand: target } } };
}

export interface EntityListInput {
  type?: string;
  status?: CatalogEntityStatus;
  category?: string;
  brand?: string;
  sort?: string;
  include?: string;
}

export async function listEntities(ctx: CatalogCtx & ListCtx, input: EntityListInput & PageInput): Promise<Page<CatalogEntityView>> {
  const include = parseInclude(input.include);
  const order = orderBy(input.sort);
  const where: Prisma.CatalogEntityWhereInput = {
    organizationId: ctx.organization.id,
    ...(input.type ? { type: input.type } : {}),
    ...membershipFilter(input.category, 'category'),
    ...membershipFilter(input.brand, 'brand'),
    AND: [input.status ? { status: input.status } : {}, seesUnpublished(ctx) ? {} : { status: 'active' }],
  };
  return paginate(ctx, input, {
    list: 'catalogEntities',
    model: 'CatalogEntity',
    where,
    orderBy: order,
    findMany: (args) => ctx.db.catalogEntity.findMany(args),
    count: (w) => ctx.db.catalogEntity.count({ where: w }),
    page: (window) => entityPage(ctx, input, window),
    view: (rows) => withIncludes(ctx, rows, include),
  });
}

// The columns of model CatalogEntity in prisma/schema.prisma, as Prisma names them: a column
// added there must be added here too (as in findReadableEntity).
const ENTITY_COLUMNS = Prisma.sql`e.id, e.organization_id as "organizationId", e.type, e.slug, e.status::text as status, e.metadata, e.tax_class_id as "taxClassId",
  e.source_store_id as "sourceStoreId", e.published_at as "publishedAt", e.created_at as "createdAt", e.updated_at as "updatedAt"`;

const SORT_COLUMNS: Record<SortField, string> = {
  createdAt: 'e.created_at',
  updatedAt: 'e.updated_at',
  publishedAt: 'e.published_at',
  slug: 'e.slug',
  type: 'e.type',
  status: 'e.status',
};

/** The membership filter of listEntities in SQL: an entity in the category (brand) of this UUID or slug. */
function membershipSql(value: string | undefined, relation: 'category' | 'brand'): Prisma.Sql {
  if (!value) return Prisma.empty;
  const target = UUID_RE.test(value) ? Prisma.sql`x.id = ${value.toLowerCase()}::uuid` : Prisma.sql`x.slug = ${value}`;
  return relation === 'category'
    ? Prisma.sql`and exists (select 1 from catalog_entity_categories m join catalog_categories x on x.id = m.category_id where m.entity_id = e.id and ${target})`
    : Prisma.sql`and exists (select 1 from catalog_entity_brands m join catalog_brands x on x.id = m.brand_id where m.entity_id = e.id and ${target})`;
}

/**
 * An offset page of the list and the list's size in one statement straight through node-postgres
 * (db/raw.ts): the same rows, order and total as Prisma's findMany and count with the filter of
 * listEntities, without Prisma's per-statement work or a second round trip. The count is the
 * outer row, so an empty page (past the end) still carries it.
 */
async function entityPage(ctx: CatalogCtx, input: EntityListInput, window: { skip: number; take: number }): Promise<{ rows: CatalogEntity[]; total: number }> {
  const [field, direction] = (input.sort || DEFAULT_SORT).split(':') as [SortField, 'asc' | 'desc'];
  const dir = Prisma.raw(direction === 'desc' ? 'desc' : 'asc');
  const primary = field === 'publishedAt' ? Prisma.sql`${Prisma.raw(SORT_COLUMNS[field])} ${dir} nulls last` : Prisma.sql`${Prisma.raw(SORT_COLUMNS[field])} ${dir}`;
  const statuses = [input.status, seesUnpublished(ctx) ? undefined : 'active'].filter((s): s is string => s !== undefined);
  const filter = Prisma.sql`e.organization_id = ${ctx.organization.id}::uuid
    ${input.type ? Prisma.sql`and e.type = ${input.type}` : Prisma.empty}
    ${
      statuses.length
        ? Prisma.join(
            statuses.map((status) => Prisma.sql`and e.status = ${status}::catalog_entity_status`),
            ' ',
          )
        : Prisma.empty
    }
    ${membershipSql(input.category, 'category')} ${membershipSql(input.brand, 'brand')}`;
  const rows = await queryRows<CatalogEntity & { total: number }>(
    ctx.db,
    Prisma.sql`select p.*, c.total
      from (select count(*)::int as total from catalog_entities e where ${filter}) c
      left join lateral (select ${ENTITY_COLUMNS} from catalog_entities e where ${filter} order by ${primary}, e.id ${dir} limit ${window.take} offset ${window.skip}) p on true`,
  );
  const total = rows[0]?.total ?? 0;
  return { rows: rows.filter((row) => row.id !== null).map(({ total: _total, ...row }) => row as CatalogEntity), total };
}

const READABLE_ENTITY = `select id, organization_id as "organizationId", type, slug, status::text as status, metadata, tax_class_id as "taxClassId",
         source_store_id as "sourceStoreId", published_at as "publishedAt", created_at as "createdAt", updated_at as "updatedAt"
  from catalog_entities where organization_id = $1::uuid`;
const ENTITY_BY_ID: Statement = { name: 'catalog_entity_by_id', text: `${READABLE_ENTITY} and id = $2::uuid` };
const ENTITY_BY_SLUG: Statement = { name: 'catalog_entity_by_slug', text: `${READABLE_ENTITY} and slug = $2` };

/** An entity the caller may read, by UUID or slug; 404 when absent or not visible to them. */
export async function findReadableEntity(ctx: CatalogCtx, idOrSlug: string): Promise<CatalogEntity> {
  // The read behind every product page: straight to node-postgres (db/raw.ts), the same row
  // Prisma's findFirst returned, without its per-statement interpreter. The column list mirrors
  // model CatalogEntity in prisma/schema.prisma: a column added there must be added here too.
  // Named (one text per key kind): parsed once per connection, not on every product page.
  const [row] = await statementRows<CatalogEntity>(ctx.db, UUID_RE.test(idOrSlug) ? ENTITY_BY_ID : ENTITY_BY_SLUG, [ctx.organization.id, idOrSlug]);
  if (!row || (row.status !== 'active' && !seesUnpublished(ctx))) throw notFound('Catalog entity');
  return row;
}

export async function getEntity(ctx: CatalogCtx, idOrSlug: string, includeRaw?: string): Promise<CatalogEntityView> {
  const include = parseInclude(includeRaw);
  const row = await findReadableEntity(ctx, idOrSlug);
  const [view] = await withIncludes(ctx, [row], include);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return view!;
}

function assertMaySetSource(ctx: CatalogCtx, sourceStoreId: string | null | undefined): void {
  if (sourceStoreId !== undefined && !hasPermission(ctx.actor?.permissions ?? [], PERMISSION.sync)) {
    throw forbidden('Insufficient permissions: setting sourceStoreId needs catalog:sync');
  }
}

/** publishedAt records the first move to active. */
function publishedAtFor(status: CatalogEntityStatus | undefined, current: Date | null): Date | null | undefined {
  if (status !== 'active' || current) return undefined;
  return new Date();
}

export interface EntityCreateInput {
  type: string;
  slug: string;
  status: CatalogEntityStatus;
  metadata?: Record<string, unknown>;
  customFields?: Record<string, unknown>;
  locale: string;
  taxClassId?: string | null;
  sourceStoreId?: string | null;
}

/**
 * A vendor actor's entities carry its vendorId (the marketplace's optional vendorId): set on
 * create, kept on edit, whatever the body says. Only staff set or change it, and plugins check
 * it (catalog.beforeMetadataWrite: it must name a vendor of the organization).
 */
function vendorMetadata(ctx: CatalogCtx, metadata: Record<string, unknown>): Record<string, unknown> {
  const vendorId = ctx.actor?.vendorId;
  return vendorId ? { ...metadata, vendorId } : metadata;
}

/** A vendor-role user linked to no vendor creates nothing (what it created would belong to no one it could edit). */
function assertMayCreate(ctx: CatalogCtx): void {
  if (vendorScope(ctx) === null) throw forbidden('Insufficient permissions: this vendor-role user is not linked to a vendor');
}

export async function createEntity(ctx: CatalogCtx, input: EntityCreateInput): Promise<CatalogEntityView> {
  assertMayCreate(ctx);
  assertMaySetSource(ctx, input.sourceStoreId ?? undefined);
  await assertTaxClass(ctx.db, ctx, input.taxClassId);
  const fields = await validateCustomFields(ctx.db, ctx, input.type, input.customFields, 'create');
  const metadata = vendorMetadata(ctx, input.metadata ?? {});
  const row = await mapWriteErrors(
    'Catalog entity',
    () =>
      inTransaction(ctx, async (tx) => {
        await runBeforeMetadataWrite(tx, ctx, { entityId: null, metadata, previous: null });
        const entity = await tx.catalogEntity.create({
          data: {
            organizationId: ctx.organization.id,
            type: input.type,
            slug: input.slug,
            status: input.status,
            metadata: metadata as Prisma.InputJsonObject,
            taxClassId: input.taxClassId ?? null,
            sourceStoreId: input.sourceStoreId ?? null,
            publishedAt: input.status === 'active' ? new Date() : null,
          },
        });
        await applyCustomFields(tx, ctx, entity.id, fields, input.locale);
        await emitCreated(tx, ctx, entity);
        return entity;
      }),
    SLUG_CONFLICT,
  );
  const [view] = await withIncludes(ctx, [row], ['customFields']);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return view!;
}

export interface EntityUpdateInput {
  slug?: string;
  status?: CatalogEntityStatus;
  metadata?: Record<string, unknown>;
  customFields?: Record<string, unknown>;
  locale: string;
  taxClassId?: string | null;
  sourceStoreId?: string | null;
  /** Makes the entity a gift-card product (type giftCard), or a plain product again. */
  isGiftCard?: boolean;
}

/**
 * The type an update's isGiftCard asks for. The type selects the custom-field definitions, so it
 * changes only while the entity holds no custom-field values (422 otherwise).
 */
async function nextType(tx: Prisma.TransactionClient, entity: { id: string; type: string }, isGiftCard: boolean | undefined): Promise<string> {
  if (isGiftCard === undefined || isGiftCard === isGiftCardType(entity.type)) return entity.type;
  if (await tx.catalogCustomField.count({ where: { entityId: entity.id } })) {
    throw validationFailed([{ field: 'isGiftCard', message: `the entity has custom-field values of type ${entity.type}: clear them before changing what it is` }]);
  }
  return isGiftCard ? GIFT_CARD_ENTITY_TYPE : 'product';
}

/** PATCH: only given keys change; `customFields` is itself a patch (null clears a field). */
export async function updateEntity(ctx: CatalogCtx, id: string, input: EntityUpdateInput): Promise<CatalogEntityView> {
  assertMaySetSource(ctx, input.sourceStoreId);
  await assertTaxClass(ctx.db, ctx, input.taxClassId);
  const row = await mapWriteErrors(
    'Catalog entity',
    () =>
      inTransaction(ctx, async (tx) => {
        const locked = await lockEntity(tx, ctx, id);
        const type = await nextType(tx, locked, input.isGiftCard);
        const fields = await validateCustomFields(tx, ctx, type, input.customFields, 'update');
        const changes = [
          ...(['slug', 'status', 'metadata', 'taxClassId', 'sourceStoreId'] as const).filter((key) => input[key] !== undefined),
          ...(type !== locked.type ? ['type'] : []),
          ...[...fields.set.map((f) => f.name), ...fields.clear].map((name) => `customFields.${name}`),
        ];
        const current = await tx.catalogEntity.findUniqueOrThrow({ where: { id: locked.id } });
        if (!changes.length) return current;
        const metadata = input.metadata !== undefined ? vendorMetadata(ctx, input.metadata) : undefined;
        if (metadata) await runBeforeMetadataWrite(tx, ctx, { entityId: locked.id, metadata, previous: current.metadata as Record<string, unknown> });
        const entity = await tx.catalogEntity.update({
          where: { id: locked.id, organizationId: ctx.organization.id },
          data: {
            ...(input.slug !== undefined ? { slug: input.slug } : {}),
            ...(input.status !== undefined ? { status: input.status, publishedAt: publishedAtFor(input.status, current.publishedAt) } : {}),
            ...(metadata !== undefined ? { metadata: metadata as Prisma.InputJsonObject } : {}),
            ...(input.taxClassId !== undefined ? { taxClassId: input.taxClassId } : {}),
            ...(input.sourceStoreId !== undefined ? { sourceStoreId: input.sourceStoreId } : {}),
            ...(type !== locked.type ? { type } : {}),
            updatedAt: new Date(),
          },
        });
        await applyCustomFields(tx, ctx, entity.id, fields, input.locale);
        await emitUpdated(tx, ctx, entity.id, changes, entity);
        return entity;
      }),
    SLUG_CONFLICT,
  );
  const [view] = await withIncludes(ctx, [row], ['customFields']);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return view!;
}

/**
 * publish / archive / discontinue: allowed from any state. A move to the state the entity is
 * already in changes nothing and emits nothing; a real move emits catalog.update (changes: status).
 */
export async function transitionEntity(ctx: CatalogCtx, id: string, to: CatalogEntityStatus): Promise<CatalogEntityView> {
  const row = await inTransaction(ctx, async (tx) => {
    const locked = await lockEntity(tx, ctx, id);
    const current = await tx.catalogEntity.findUniqueOrThrow({ where: { id: locked.id } });
    if (current.status === to) return current;
    const entity = await tx.catalogEntity.update({
      where: { id: locked.id, organizationId: ctx.organization.id },
      data: { status: to, publishedAt: publishedAtFor(to, current.publishedAt) },
    });
    await emitUpdated(tx, ctx, entity.id, ['status'], entity);
    return entity;
  });
  const [view] = await withIncludes(ctx, [row], []);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return view!;
}

/** Deletes the entity and everything that belongs to it (attributes, variants, options, values). */
export async function deleteEntity(ctx: CatalogCtx, id: string): Promise<CatalogEntityView> {
  const row = await mapWriteErrors('Catalog entity', () =>
    inTransaction(ctx, async (tx) => {
      await lockEntity(tx, ctx, id);
      const entity = await tx.catalogEntity.delete({ where: { id, organizationId: ctx.organization.id } });
      await emitDeleted(tx, ctx, entity);
      return entity;
    }),
  );
  const [view] = await withIncludes(ctx, [row], []);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return view!;
}
