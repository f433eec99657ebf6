// What media operations return: assets (with a signed URL) and attachments (with their asset
// and its renditions).
import type { Config } from '../../config/index.js';
import type { MediaAsset, MediaAttachment } from '../../generated/prisma/client.js';
import { signMediaUrl } from './signing.js';

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

export function assetView(config: Config, row: MediaAsset): MediaAssetView {
  const signed = signMediaUrl(config, row.id);
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

export function attachmentView(config: Config, row: MediaAttachment & { asset: MediaAsset & { derived: MediaAsset[] } }): MediaAttachmentView {
  return {
    id: row.id,
    entityId: row.entityId,
    variantId: row.variantId,
    mediaAssetId: row.mediaAssetId,
    role: row.role,
    sortOrder: row.sortOrder,
    asset: assetView(config, row.asset),
    renditions: row.asset.derived
      .filter((d) => d.origin === 'generated')
      .sort((a, b) => (a.width ?? 0) - (b.width ?? 0))
      .map((d) => assetView(config, d)),
    createdAt: row.createdAt,
  };
}
