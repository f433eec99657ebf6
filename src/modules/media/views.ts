// What media operations return: assets (with a signed URL) and attachments (with their asset
// and its renditions).
import type { Config } from '../../config/index.js';
import type { MediaAsset, MediaAttachment } from '../../generated/prisma/client.js';
import { signMediaUrl, type SignedUrl } from './signing.js';
import { mediaStorage } from './storage.js';

/**
 * The URL of an asset's bytes, valid for media.signedUrlTtlSeconds: a presigned GET of the
 * bucket when the store can make one (S3), otherwise the API's HMAC-signed content route.
 */
export async function contentUrl(config: Config, row: Pick<MediaAsset, 'id' | 'storageKey' | 'mimeType'>): Promise<SignedUrl> {
  const storage = mediaStorage(config);
  return storage.presign ? storage.presign(row.storageKey, config.media.signedUrlTtlSeconds, row.mimeType) : signMediaUrl(config, row.id);
}

export interface MediaAssetView {
  id: string;
  origin: 'merchant' | 'generated' | 'imported';
  confidence: number | null;
  derivedFromAssetId: string | null;
  alt: string | null;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  checksum: string;
  /** A signed URL serving the bytes until `urlExpiresAt`. */
  url: string;
  urlExpiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface MediaAttachmentView {
  id: string;
  entityId: string;
  variantId: string | null;
  mediaAssetId: string;
  role: string;
  sortOrder: number;
  asset: MediaAssetView;
  /** Web-sized renditions of the asset (origin generated), narrowest first. */
  renditions: MediaAssetView[];
  createdAt: Date;
}

export async function assetView(config: Config, row: MediaAsset): Promise<MediaAssetView> {
  const signed = await contentUrl(config, row);
  return {
    id: row.id,
    origin: row.origin,
    confidence: row.confidence,
    derivedFromAssetId: row.derivedFromAssetId,
    alt: row.alt,
    mimeType: row.mimeType,
    size: row.size,
    width: row.width,
    height: row.height,
    checksum: row.checksum,
    url: signed.url,
    urlExpiresAt: signed.expiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function attachmentView(config: Config, row: MediaAttachment & { asset: MediaAsset & { derived: MediaAsset[] } }): Promise<MediaAttachmentView> {
  const renditions = row.asset.derived.filter((d) => d.origin === 'generated').sort((a, b) => (a.width ?? 0) - (b.width ?? 0));
  return {
    id: row.id,
    entityId: row.entityId,
    variantId: row.variantId,
    mediaAssetId: row.mediaAssetId,
    role: row.role,
    sortOrder: row.sortOrder,
    asset: await assetView(config, row.asset),
    renditions: await Promise.all(renditions.map((d) => assetView(config, d))),
    createdAt: row.createdAt,
  };
}
