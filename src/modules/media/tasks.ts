// Background work of the media module: web-sized renditions of uploaded images, and removal of
// stored objects whose rows were deleted (the safety net behind after-commit removal).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs/promises';
import type Sharp from 'sharp';
import { lazyModule } from '../../lazy.js';

// sharp (libvips) loads on the first image, not at boot.
const sharp = lazyModule<typeof Sharp>('sharp');
import { defineTask, JobError } from '../../jobs/tasks.js';
import { Prisma } from '../../generated/prisma/client.js';
import { describeFile, REMOVE_OBJECTS_TASK, RENDITIONS_TASK, storageKey } from './service.js';
import { mediaStorage } from './storage.js';

/** Rendition widths in pixels (WebP); widths not below the original are skipped. */
export const RENDITION_WIDTHS = [320, 960] as const;

defineTask({
  slug: RENDITIONS_TASK,
  retries: { attempts: 3, backoff: { type: 'exponential', delay: 10_000 } },
  concurrency: { key: (input) => `media:${input.assetId}` },
  async handler(input, ctx) {
    const asset = await ctx.db.mediaAsset.findFirst({ where: { id: input.assetId, organizationId: ctx.organizationId }, include: { derived: true } });
    if (!asset?.width) return { created: 0 };
    const storage = mediaStorage(ctx.config);
    const source = await storage.get(asset.storageKey);
    if (!source) throw new JobError(`stored object of asset ${asset.id} is missing`, { retry: false });
    const bytes = Buffer.from(await new Response(source.body).arrayBuffer());
    let created = 0;
    for (const width of RENDITION_WIDTHS) {
      if (width >= asset.width) continue;
      if (asset.derived.some((d) => d.origin === 'generated' && d.width === width)) continue;
      const { data, info } = await sharp()(bytes, { animated: false }).resize({ width }).webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
      const id = randomUUID();
      const key = storageKey(ctx.organizationId, id);
      const temp = path.join(await storage.tempDir(), randomUUID());
      await fs.writeFile(temp, data);
      const { size, checksum } = await describeFile(temp);
      await storage.putFile(key, temp, 'image/webp');
      try {
        await ctx.db.mediaAsset.create({
          data: {
            id,
            organizationId: ctx.organizationId,
            origin: 'generated',
            derivedFromAssetId: asset.id,
            alt: asset.alt,
            mimeType: 'image/webp',
            size,
            width: info.width,
            height: info.height,
            checksum,
            storageKey: key,
          },
        });
        created += 1;
      } catch (error) {
        await storage.remove(key).catch(() => undefined);
        // Identical bytes already derived (a rerun): nothing to add.
        if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) throw error;
      }
    }
    return { created };
  },
});

defineTask({
  slug: REMOVE_OBJECTS_TASK,
  retries: { attempts: 10, backoff: { type: 'exponential', delay: 30_000 } },
  async handler(input, ctx) {
    const storage = mediaStorage(ctx.config);
    // Only objects whose row is really gone: a key still referenced is left alone.
    const still = new Set(
      (await ctx.db.mediaAsset.findMany({ where: { organizationId: ctx.organizationId, storageKey: { in: input.keys } }, select: { storageKey: true } })).map((r) => r.storageKey),
    );
    const keys = input.keys.filter((key) => !still.has(key));
    await Promise.all(keys.map((key) => storage.remove(key)));
    return { removed: keys.length };
  },
});
