// Media: upload (stored after its bytes are checked), read, attach/detach/reorder, delete.
// Every read and write is scoped to ctx.organization: another organization's asset is 404.
import { createHash, randomUUID } from 'node:crypto';
import { markCacheTouched } from '../../events/cache-signal.js';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import type Sharp from 'sharp';
import { lazyModule } from '../../lazy.js';

// sharp (libvips) loads on the first image, not at boot.
const sharp = lazyModule<typeof Sharp>('sharp');
import type { RequestContext } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, conflict, notFound, validationFailed } from '../../errors.js';
import { hasPermission, MEDIA_WRITE } from '../../auth/permissions.js';
import { Prisma, type MediaAsset, type MediaOrigin } from '../../generated/prisma/client.js';
import { mediaStorage } from './storage.js';
import { assetView, attachmentView, type MediaAssetView, type MediaAttachmentView } from './views.js';

export type MediaCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'config' | 'services' | 'requestId' | 'logger'>;

export const RENDITIONS_TASK = 'media/renditions';
export const REMOVE_OBJECTS_TASK = 'media/removeObjects';
/** The removal job waits this long: after-commit removal normally wins, the job is the safety net. */
export const REMOVAL_SAFETY_DELAY_MS = 60_000;

declare module '../../jobs/tasks.js' {
  interface TaskTypes {
    'media/renditions': { input: { assetId: string }; output: { created: number } };
    'media/removeObjects': { input: { keys: string[] }; output: { removed: number } };
  }
}

/** Managing media: also what lets a caller see sold files (below) in catalog answers. */
export { MEDIA_WRITE };

/**
 * The attachment role of the file a digital product sells. Such a file (and any rendition of it)
 * is handed out only by GET /me/orders/:id/downloads of a paid order (customers/downloads.ts):
 * catalog answers leave its attachments out and its asset routes are 404, for everyone but
 * staff with media:write. By asset, not by attachment: the same bytes attached elsewhere as a
 * picture would otherwise hand out the sold file's URL.
 */
export const DOWNLOAD_ROLE = 'download';

/** Prisma filter of assets that are not, and do not derive from, a sold file. */
const NOT_SOLD_FILE = {
  attachments: { none: { role: DOWNLOAD_ROLE } },
  OR: [{ derivedFromAssetId: null }, { derivedFrom: { attachments: { none: { role: DOWNLOAD_ROLE } } } }],
} satisfies Prisma.MediaAssetWhereInput;

/** The filter for what this caller may see: everything for media staff, no sold file otherwise. */
function visibleAssets(ctx: Pick<MediaCtx, 'actor'>): Prisma.MediaAssetWhereInput {
  return hasPermission(ctx.actor?.permissions ?? [], MEDIA_WRITE) ? {} : NOT_SOLD_FILE;
}

const ALIASES: Record<string, string> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'image/x-png': 'image/png' };

export function storageKey(organizationId: string, assetId: string): string {
  return `${organizationId}/${assetId}`;
}

/** A file received into a temporary file (http upload or GraphQL Upload), not yet checked. */
export interface ReceivedFile {
  tempFile: string;
  size: number;
  checksum: string;
  /** The Content-Type the client declared for the part, if any. */
  declaredType: string | null;
}

async function looksLikeSvg(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8').trimStart().toLowerCase();
    return head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg')) || head.includes('<svg');
  } finally {
    await handle.close();
  }
}

/** The type the bytes say, checked against the allowed list and the declared type. */
async function checkedType(ctx: MediaCtx, file: ReceivedFile): Promise<string> {
  const detected = await fileTypeFromFile(file.tempFile);
  if (!detected) {
    const svg = await looksLikeSvg(file.tempFile);
    throw validationFailed([
      { field: 'file', message: svg ? 'SVG images are refused: they can carry script' : 'unrecognized file type; allowed: ' + ctx.config.media.allowedTypes.join(', ') },
    ]);
  }
  if (!ctx.config.media.allowedTypes.includes(detected.mime)) {
    throw validationFailed([{ field: 'file', message: `${detected.mime} is not allowed; allowed: ${ctx.config.media.allowedTypes.join(', ')}` }]);
  }
  const declared = file.declaredType?.split(';')[0]?.trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream' && (ALIASES[declared] ?? declared) !== detected.mime) {
    throw validationFailed([{ field: 'file', message: `declared type ${declared} contradicts the file's bytes (${detected.mime})` }]);
  }
  return detected.mime;
}

export interface StoredAsset {
  asset: MediaAssetView;
  /** False when the same bytes were uploaded before and that asset is returned. */
  created: boolean;
}

/** Checks a received file and stores it as an asset (or returns the asset with the same bytes). */
export async function storeUpload(ctx: MediaCtx, file: ReceivedFile, options: { alt?: string | null; origin?: MediaOrigin } = {}): Promise<StoredAsset> {
  const storage = mediaStorage(ctx.config);
  const origin = options.origin ?? 'merchant';
  try {
    if (file.size === 0) throw validationFailed([{ field: 'file', message: 'is empty' }]);
    const mimeType = await checkedType(ctx, file);
    const where = { organizationId: ctx.organization.id, checksum: file.checksum, origin };
    const existing = await ctx.db.mediaAsset.findFirst({ where });
    if (existing) return { asset: await assetView(ctx.config, existing), created: false };

    let width: number | null = null;
    let height: number | null = null;
    if (mimeType.startsWith('image/')) {
      const meta = await sharp()(file.tempFile)
        .metadata()
        .catch(() => null);
      if (!meta?.width || !meta.height) throw validationFailed([{ field: 'file', message: 'the image cannot be decoded' }]);
      width = meta.width;
      height = meta.height;
    }
    // Object first, then the row: a row never points at missing bytes. If the row cannot be
    // written the object goes again.
    const id = randomUUID();
    const key = storageKey(ctx.organization.id, id);
    await storage.putFile(key, file.tempFile, mimeType).catch((error: unknown) => {
      // The store (an S3 bucket) cannot be reached: nothing was written, the client may retry.
      ctx.logger.error({ err: error, key }, 'media store write failed');
      throw storeUnavailable();
    });
    try {
      const row = await withTransaction(ctx, async (tx) => {
        const created = await tx.mediaAsset.create({
          data: { id, organizationId: ctx.organization.id, origin, alt: options.alt ?? null, mimeType, size: file.size, width, height, checksum: file.checksum, storageKey: key },
        });
        if (width && origin !== 'generated') {
          await ctx.services.jobs.enqueue({ task: RENDITIONS_TASK, organizationId: ctx.organization.id, input: { assetId: id } }, tx);
        }
        return created;
      });
      return { asset: await assetView(ctx.config, row), created: true };
    } catch (error) {
      await storage.remove(key).catch(() => undefined);
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        // The same bytes were stored concurrently: theirs is the asset.
        const winner = await ctx.db.mediaAsset.findFirst({ where });
        if (winner) return { asset: await assetView(ctx.config, winner), created: false };
      }
      throw error;
    }
  } finally {
    await fs.rm(file.tempFile, { force: true });
  }
}

/** SHA-256 and size of a file on disk (renditions, imports). */
export async function describeFile(file: string): Promise<{ size: number; checksum: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, checksum: hash.digest('hex') };
}

/** An asset of the organization the caller may see (a sold file is 404 but to media staff). */
export async function findAsset(ctx: MediaCtx, id: string): Promise<MediaAsset> {
  const row = await ctx.db.mediaAsset.findFirst({ where: { id, organizationId: ctx.organization.id, ...visibleAssets(ctx) } });
  if (!row) throw notFound('Media asset');
  return row;
}

export async function getAsset(ctx: MediaCtx, id: string): Promise<MediaAssetView> {
  return assetView(ctx.config, await findAsset(ctx, id));
}

const withAsset = { asset: { include: { derived: true } } } as const;

export interface AttachInput {
  entityId: string;
  mediaAssetId: string;
  role: string;
  variantId?: string | null;
  sortOrder?: number;
}

/**
 * Attachments shape catalog answers (include=media) but record no outbox event: mark the request so
 * this process drops its cached catalog reads before answering; the media tables' trigger
 * (migration response_cache_notify) tells the other processes at commit.
 */
function mediaChanged(ctx: MediaCtx): void {
  markCacheTouched(ctx.requestId, ctx.organization.id, 'catalog.media');
}

export async function attach(ctx: MediaCtx, input: AttachInput): Promise<MediaAttachmentView> {
  const org = ctx.organization.id;
  const [entity, asset, variant] = await Promise.all([
    ctx.db.catalogEntity.findFirst({ where: { id: input.entityId, organizationId: org }, select: { id: true } }),
    ctx.db.mediaAsset.findFirst({ where: { id: input.mediaAssetId, organizationId: org }, select: { id: true } }),
    input.variantId ? ctx.db.catalogVariant.findFirst({ where: { id: input.variantId, organizationId: org }, select: { entityId: true } }) : Promise.resolve(null),
  ]);
  if (!entity) throw notFound('Catalog entity');
  if (!asset) throw notFound('Media asset');
  if (input.variantId && !variant) throw notFound('Catalog variant');
  if (variant && variant.entityId !== entity.id) throw validationFailed([{ field: 'variantId', message: 'is a variant of another entity' }]);
  try {
    const row = await ctx.db.mediaAttachment.create({
      data: {
        organizationId: org,
        entityId: entity.id,
        variantId: input.variantId ?? null,
        variantKey: input.variantId ?? '',
        mediaAssetId: asset.id,
        role: input.role,
        sortOrder: input.sortOrder ?? 0,
      },
      include: withAsset,
    });
    mediaChanged(ctx);
    return await attachmentView(ctx.config, row);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw conflict(input.variantId ? 'This asset is already attached to this variant' : 'This asset is already attached to this entity');
    }
    throw error;
  }
}

export async function detach(ctx: MediaCtx, attachmentId: string): Promise<MediaAttachmentView> {
  const row = await ctx.db.mediaAttachment.findFirst({ where: { id: attachmentId, organizationId: ctx.organization.id }, include: withAsset });
  if (!row) throw notFound('Media attachment');
  await ctx.db.mediaAttachment.deleteMany({ where: { id: row.id, organizationId: ctx.organization.id } });
  mediaChanged(ctx);
  return await attachmentView(ctx.config, row);
}

/** Sets sortOrder to each attachment's position in `attachmentIds` (all of one entity), in one statement. */
export async function reorder(ctx: MediaCtx, entityId: string, attachmentIds: string[]): Promise<MediaAttachmentView[]> {
  const unique = [...new Set(attachmentIds)];
  if (unique.length !== attachmentIds.length) throw validationFailed([{ field: 'attachmentIds', message: 'lists an attachment twice' }]);
  return withTransaction(ctx, async (tx) => {
    const rows = await tx.mediaAttachment.findMany({ where: { organizationId: ctx.organization.id, entityId, id: { in: unique } }, select: { id: true } });
    if (rows.length !== unique.length) {
      const known = new Set(rows.map((r) => r.id));
      throw validationFailed([{ field: 'attachmentIds', message: `not attachments of this entity: ${unique.filter((id) => !known.has(id)).join(', ')}` }]);
    }
    if (unique.length) {
      await tx.$executeRaw`UPDATE media_attachments a SET sort_order = v.ord - 1
        FROM unnest(${unique}::uuid[]) WITH ORDINALITY AS v(id, ord)
        WHERE a.id = v.id AND a.organization_id = ${ctx.organization.id}::uuid`;
    }
    const all = await tx.mediaAttachment.findMany({
      where: { organizationId: ctx.organization.id, entityId },
      include: withAsset,
      orderBy: [{ sortOrder: 'asc' }, { createdAt: 'asc' }],
    });
    mediaChanged(ctx);
    return Promise.all(all.map((row) => attachmentView(ctx.config, row)));
  });
}

/**
 * Attachments of these entities (with assets and renditions) the caller may see (no sold file
 * but to media staff), in a fixed number of statements.
 */
export async function attachmentsOf(ctx: MediaCtx, by: { entityIds: string[] } | { variantIds: string[] }): Promise<MediaAttachmentView[]> {
  const where = 'entityIds' in by ? { entityId: { in: by.entityIds } } : { variantId: { in: by.variantIds } };
  const rows = await ctx.db.mediaAttachment.findMany({
    where: { organizationId: ctx.organization.id, ...where, asset: visibleAssets(ctx) },
    include: withAsset,
    orderBy: [{ sortOrder: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }],
  });
  return Promise.all(rows.map((row) => attachmentView(ctx.config, row)));
}

/**
 * Deletes an asset with its attachments and renditions. The stored objects are removed after
 * the commit; a job enqueued in the same transaction removes them later if that fails (or the
 * process dies first), so no object outlives its row for longer than the job's retries.
 */
export async function deleteAsset(ctx: MediaCtx, id: string): Promise<MediaAssetView> {
  const { asset, keys } = await withTransaction(ctx, async (tx) => {
    const row = await tx.mediaAsset.findFirst({ where: { id, organizationId: ctx.organization.id }, include: { derived: { select: { storageKey: true } } } });
    if (!row) throw notFound('Media asset');
    const keys = [row.storageKey, ...row.derived.map((d) => d.storageKey)];
    await tx.mediaAsset.deleteMany({ where: { organizationId: ctx.organization.id, OR: [{ id: row.id }, { derivedFromAssetId: row.id }] } });
    await ctx.services.jobs.enqueue({ task: REMOVE_OBJECTS_TASK, organizationId: ctx.organization.id, input: { keys }, delayMs: REMOVAL_SAFETY_DELAY_MS }, tx);
    return { asset: row, keys };
  });
  mediaChanged(ctx);
  const storage = mediaStorage(ctx.config);
  await Promise.all(keys.map((key) => storage.remove(key))).catch((error) => {
    ctx.logger.warn({ err: error, keys }, 'media object removal failed; the media/removeObjects job retries it');
  });
  return assetView(ctx.config, asset);
}

export function storeUnavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The media store cannot be reached; try again shortly');
}

export function payloadTooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the upload limit of ${limit} bytes`);
}
