// Files of bulk jobs: the uploaded import, its error report and export results. They live in the
// media store (local files or the S3 bucket) under `<organizationId>/<fileId>`, but are not media
// assets: no row, no renditions, never shown on the catalog. They are handed out through
// `GET /api/bulk/files/:organizationId/:fileId?expires=&signature=`, an HMAC-signed expiring URL
// like media's (its own key derivation, so a media signature never opens a bulk file).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Config } from '../../config/index.js';
import { resolveAuthSecret } from '../../auth/secret.js';
import { mediaStorage } from '../media/storage.js';

/** How long a download link in a job's output stays valid (re-read the job for a fresh one). */
export const BULK_FILE_TTL_SECONDS = 60 * 60;

const keys = new WeakMap<Config, Buffer>();

function signingKey(config: Config): Buffer {
  let key = keys.get(config);
  if (!key) {
    key = createHmac('sha256', resolveAuthSecret(config)).update('commerce bulk file signing v1').digest();
    keys.set(config, key);
  }
  return key;
}

function signature(config: Config, storageKey: string, expires: number): string {
  return createHmac('sha256', signingKey(config)).update(`${storageKey}:${expires}`).digest('base64url');
}

export function storageKeyOf(organizationId: string, fileId: string): string {
  return `${organizationId.toLowerCase()}/${fileId.toLowerCase()}`;
}

export interface SignedFile {
  url: string;
  expiresAt: string;
}

export function signBulkFile(config: Config, organizationId: string, fileId: string, now = Date.now()): SignedFile {
  const expires = Math.floor(now / 1000) + BULK_FILE_TTL_SECONDS;
  const key = storageKeyOf(organizationId, fileId);
  const query = new URLSearchParams({ expires: String(expires), signature: signature(config, key, expires) });
  const base = (config.baseUrl ?? `http://localhost:${config.port}`).replace(/\/$/, '');
  return { url: `${base}/api/bulk/files/${key}?${query}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** Why a fetched URL is refused, or null when it is signed and unexpired. */
export function verifyBulkFile(config: Config, storageKey: string, expiresRaw: string | null, signatureRaw: string | null, now = Date.now()): string | null {
  if (!expiresRaw || !signatureRaw || !/^\d{1,12}$/.test(expiresRaw)) return 'this file URL is not signed';
  const expected = Buffer.from(signature(config, storageKey, Number(expiresRaw)));
  const given = Buffer.from(signatureRaw);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'this file URL has an invalid signature';
  if (Number(expiresRaw) * 1000 <= now) return 'this file URL has expired';
  return null;
}

/** A temporary file beside the store's own (same filesystem for the local store: rename is atomic). */
export async function tempPath(config: Config): Promise<string> {
  return path.join(await mediaStorage(config).tempDir(), randomUUID());
}

/** Moves a finished temporary file into the store; returns its file id. */
export async function putBulkFile(config: Config, organizationId: string, tempFile: string, fileId = randomUUID()): Promise<string> {
  await mediaStorage(config).putFile(storageKeyOf(organizationId, fileId), tempFile, 'text/csv');
  return fileId;
}

/** The stored file as a Node stream, or null when it is gone. */
export async function readBulkFile(config: Config, organizationId: string, fileId: string): Promise<Readable | null> {
  const object = await mediaStorage(config).get(storageKeyOf(organizationId, fileId));
  return object ? Readable.fromWeb(object.body as never) : null;
}

export async function removeBulkFile(config: Config, organizationId: string, fileId: string): Promise<void> {
  await mediaStorage(config).remove(storageKeyOf(organizationId, fileId));
}

/** A local temporary file as a stream (the import's first pass counts rows before the store copy is read). */
export function readTemp(file: string): Readable {
  return createReadStream(file);
}

export async function removeTemp(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}
