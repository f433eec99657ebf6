// Product images named by URL in an import: fetched through the guarded outbound client (the
// webhook delivery's: private and loopback targets refused unless webhooks.allowPrivateTargets,
// redirects not followed), stored as media assets of origin `imported` and attached to the
// product in file order. The same bytes are one asset (checksum), and an attachment that exists
// is left alone, so a re-import adds nothing. Runs after the batch's commit: a slow image host
// never holds the catalog transaction open.
import { Readable } from 'node:stream';
import type { MediaCtx } from '../media/service.js';
import { storeUpload } from '../media/service.js';
import { streamToTemp } from '../media/upload.js';
import { guardedFetch } from '../webhooks/guarded-fetch.js';
import { allowsPrivateWebhookTargets } from '../../config/schema.js';
import { AppError } from '../../errors.js';
import type { RowError } from './format.js';
import { removeTemp } from './files.js';
import { tracedFetch } from '../../observability/trace-context.js';

const IMAGE_TIMEOUT_MS = 15_000;

export interface ImageWork {
  entityId: string;
  row: number;
  column: string;
  urls: string[];
}

export async function attachImages(ctx: MediaCtx, work: ImageWork[]): Promise<{ attached: number; errors: RowError[] }> {
  const send = tracedFetch(guardedFetch({ allowPrivate: allowsPrivateWebhookTargets(ctx.config), timeoutMs: IMAGE_TIMEOUT_MS }), 'image');
  const errors: RowError[] = [];
  let attached = 0;
  for (const item of work) {
    const existing = await ctx.db.mediaAttachment.findMany({
      where: { organizationId: ctx.organization.id, entityId: item.entityId, variantKey: '' },
      select: { mediaAssetId: true, sortOrder: true },
    });
    const have = new Set(existing.map((a) => a.mediaAssetId));
    let sortOrder = existing.reduce((max, a) => Math.max(max, a.sortOrder + 1), 0);
    for (const url of item.urls) {
      try {
        const response = await send(url);
        if (response.status !== 200 || !response.body) throw new Error(`answered ${response.status}`);
        const file = await streamToTemp(ctx.config, Readable.fromWeb(response.body as never), response.headers.get('content-type'));
        // The same bytes already stored (uploaded, or exported and imported back) are that asset.
        const known = await ctx.db.mediaAsset.findFirst({
          where: { organizationId: ctx.organization.id, checksum: file.checksum, derivedFromAssetId: null },
          select: { id: true },
        });
        if (known) await removeTemp(file.tempFile);
        const asset = known ?? (await storeUpload(ctx, file, { origin: 'imported' })).asset;
        if (have.has(asset.id)) continue;
        await ctx.db.mediaAttachment.create({
          data: { organizationId: ctx.organization.id, entityId: item.entityId, variantKey: '', mediaAssetId: asset.id, role: 'gallery', sortOrder: sortOrder++ },
        });
        have.add(asset.id);
        attached += 1;
      } catch (error) {
        const reason = error instanceof AppError ? error.message : (error as Error).message;
        errors.push({ row: item.row, column: item.column, message: `image ${url} not imported: ${reason}` });
      }
    }
  }
  return { attached, errors };
}
