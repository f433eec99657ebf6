// Where media bytes live. The built-in adapter keeps files under DATA_DIR/media, served by the
// API itself through signed URLs (signing.ts); `media.storage: 's3'` selects the S3-compatible
// adapter (s3-storage.ts), whose URLs are presigned GETs of the bucket. Keys are `<organizationId>/<assetId>`: never
// shared between assets, so removing one asset's object cannot take another's bytes.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Config } from '../../config/index.js';
import { s3Storage } from './s3-storage.js';
import type { MediaStorage } from './storage-port.js';

export type { MediaStorage } from './storage-port.js';

export function safeKey(key: string): string {
  if (!/^[0-9a-f-]{36}\/[0-9a-f-]{36}$/.test(key)) throw new Error(`invalid media storage key ${key}`);
  return key;
}

export function localStorage(config: Config): MediaStorage {
  const root = path.resolve(config.dataDir, 'media');
  const file = (key: string) => path.join(root, safeKey(key));
  return {
    name: 'local',
    async putFile(key, tempFile) {
      await fs.mkdir(path.dirname(file(key)), { recursive: true });
      await fs.rename(tempFile, file(key));
    },
    async get(key) {
      try {
        const stat = await fs.stat(file(key));
        return { body: Readable.toWeb(createReadStream(file(key))) as ReadableStream<Uint8Array>, size: stat.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await fs.rm(file(key), { force: true });
    },
    async tempDir() {
      const dir = path.join(root, '.incoming');
      await fs.mkdir(dir, { recursive: true });
      return dir;
    },
  };
}

const stores = new WeakMap<Config, MediaStorage>();

/** The configured store of this process (one per config object). */
export function mediaStorage(config: Config): MediaStorage {
  let store = stores.get(config);
  if (!store) {
    store = config.media.storage === 's3' ? s3Storage(config, safeKey) : localStorage(config);
    stores.set(config, store);
  }
  return store;
}
