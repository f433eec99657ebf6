// What every catalog file shares: the context a service needs, the visibility and sync rules,
// input formats, and the mapping of database constraint errors to contract errors.
import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { hasPermission } from '../../auth/permissions.js';
import { AppError, conflict, forbidden, notFound } from '../../errors.js';
import { conflictingFields, isForeignKeyViolation, isRecordNotFound, uniqueViolation } from '../../db/errors.js';

/** What catalog services need from a request (the seed and the bench build one without HTTP). */
export type CatalogCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'requestId'>;

export const PERMISSION = {
  read: 'catalog:read',
  readUnpublished: 'catalog:read:unpublished',
  create: 'catalog:create',
  update: 'catalog:update',
  delete: 'catalog:delete',
  sync: 'catalog:sync',
} as const;

export const DEFAULT_LOCALE = 'en';

/** Drafts, archived and discontinued entities are visible only with catalog:read:unpublished. */
export function seesUnpublished(ctx: Pick<CatalogCtx, 'actor'>): boolean {
  return hasPermission(ctx.actor?.permissions ?? [], PERMISSION.readUnpublished);
}

/** Store-sourced entities (sourceStoreId set) need catalog:sync on top of the route's permission. */
export function assertSyncAllowed(ctx: Pick<CatalogCtx, 'actor'>, entity: { sourceStoreId: string | null }, what: string): void {
  if (entity.sourceStoreId && !hasPermission(ctx.actor?.permissions ?? [], PERMISSION.sync)) {
    throw forbidden(`Insufficient permissions: ${what} of a store-sourced entity also needs catalog:sync`);
  }
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ── input formats ──

/** URL-safe handle: lowercase letters and digits in hyphen-separated words, never UUID-shaped. */
export const slugSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters and digits in hyphen-separated words, e.g. blue-t-shirt')
  .refine((value) => !UUID_RE.test(value), 'must not look like a UUID: entities are addressed by UUID or slug');

/** Entity type (product, digitalDownload, ...) and custom-field names share this shape. */
export const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const entityTypeSchema = z.string().regex(NAME_RE, 'must start with a letter and hold letters, digits, _ or - (at most 64)');
export const fieldNameSchema = z.string().regex(NAME_RE, 'must start with a letter and hold letters, digits, _ or - (at most 64)');

function canonicalLocale(value: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(value);
    return canonical ?? null;
  } catch {
    return null;
  }
}

/** A BCP 47 locale, stored in canonical form (en-us → en-US). */
export const localeSchema = z
  .string()
  .min(2)
  .max(35)
  .refine((value) => canonicalLocale(value) !== null, 'must be a BCP 47 locale such as en or de-DE')
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  .transform((value) => canonicalLocale(value)!);

export const jsonObject = z.record(z.string(), z.unknown());

// ── database errors ──

export { uniqueViolation, isForeignKeyViolation, isRecordNotFound };

/**
 * Runs a write and maps unique violations to 409 through `conflicts` (matched against the
 * violated columns), and a vanished row (P2025) to 404 for `what`.
 */
export async function mapWriteErrors<T>(what: string, run: () => Promise<T>, conflicts: Array<[RegExp, string]> = []): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const unique = uniqueViolation(error);
    if (unique !== null) {
      const match = conflicts.find(([pattern]) => pattern.test(unique));
      const fields = conflictingFields(unique);
      // An index named without its columns gives no fields: omit the key rather than send [].
      throw conflict(match?.[1] ?? `${what} conflicts with an existing one`, fields.length ? { fields } : undefined);
    }
    if (isRecordNotFound(error)) throw notFound(what);
    if (isForeignKeyViolation(error)) throw conflict(`${what} is referenced by other records`);
    throw error;
  }
}

/**
 * Interactive transaction limits for catalog writes. Writes of one entity queue on its row lock
 * (variants/quick races, concurrent approvals), and that wait counts toward Prisma's default
 * 5 s timeout; these bounds keep a busy entity from turning into spurious 500s.
 */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

export function inTransaction<T>(ctx: Pick<CatalogCtx, 'db'>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.db.$transaction(fn, TX_OPTIONS);
}

type VendorActor = { actor?: { vendorId?: string; actsForVendor?: boolean } | null };

/**
 * The vendor a vendor actor (the marketplace's vendor role) writes for: its vendorId, or null when
 * it is linked to none (then it writes nothing). Undefined for everyone else (staff, keys).
 */
export function vendorScope(ctx: VendorActor): string | null | undefined {
  const actor = ctx.actor;
  if (!actor?.actsForVendor && !actor?.vendorId) return undefined;
  return actor.vendorId ?? null;
}

/** Whether a vendor actor may write an entity with this metadata (everyone else: yes). */
export function writesEntity(ctx: VendorActor, metadata: unknown): boolean {
  const vendorId = vendorScope(ctx);
  if (vendorId === undefined) return true;
  return vendorId !== null && (metadata as { vendorId?: unknown } | null)?.vendorId === vendorId;
}

/**
 * Organization-wide catalog settings (categories, brands, field definitions, the proposal queue)
 * are staff work: a vendor holds catalog:create/update for its own entities only.
 */
export function assertNotVendor(ctx: VendorActor, what: string): void {
  if (vendorScope(ctx) !== undefined) throw forbidden(`Insufficient permissions: ${what} is staff work; a vendor writes only its own entities`);
}

/**
 * Locks an entity for a write; 404 outside the organization. A vendor actor (vendorScope, the
 * marketplace) writes only entities whose `metadata.vendorId` is its own, and none when it is
 * linked to no vendor: every entity write (attributes, variants, media, ...) goes through this
 * lock, so the rule holds for all.
 */
export async function lockEntity(
  tx: Tx,
  ctx: Pick<CatalogCtx, 'organization'> & VendorActor,
  id: string,
): Promise<{ id: string; type: string; slug: string; status: string; sourceStoreId: string | null }> {
  const scope = vendorScope(ctx);
  const scoped = scope !== undefined;
  const vendorId = scope ?? null;
  // Scoped with no vendor: `= null` is never true, so no row.
  const rows = await tx.$queryRaw<Array<{ id: string; type: string; slug: string; status: string; source_store_id: string | null }>>`
    select id, type, slug, status::text as status, source_store_id from catalog_entities
    where id = ${id}::uuid and organization_id = ${ctx.organization.id}::uuid
      and (not ${scoped}::boolean or metadata->>'vendorId' = ${vendorId}::text)
    for update`;
  const row = rows[0];
  if (!row) throw notFound('Catalog entity');
  return { id: row.id, type: row.type, slug: row.slug, status: row.status, sourceStoreId: row.source_store_id };
}

export function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', 'Input validation failed', [{ field, message }]);
}

/**
 * A foreign key given in a body must name a row of the caller's organization: an id of another
 * organization, or of nothing, is 422 naming the field (never a silent cross-tenant link, never a
 * 409/500 from the database). Tax classes are the ids catalog bodies carry.
 */
export async function assertTaxClass(db: Pick<Tx, 'taxClass'>, ctx: Pick<CatalogCtx, 'organization'>, id: string | null | undefined, field = 'taxClassId'): Promise<void> {
  if (!id) return;
  const found = await db.taxClass.findFirst({ where: { id, organizationId: ctx.organization.id }, select: { id: true } });
  if (!found) throw invalid(field, 'no such tax class in this organization');
}
