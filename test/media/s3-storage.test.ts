// The S3-compatible media store against a real S3-protocol server (s3rver, started here on a
// free port with its own directory): uploads land in the bucket, GET /media/:id redirects to a
// presigned GET that the server itself verifies and serves, renditions are stored there too, and
// a delete removes the objects, or leaves them to the retry job while the server is down.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createEntity } from '../catalog/helpers.js';
import { png, upload } from './helpers.js';

const BUCKET = 'commerce-media';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }; // s3rver's built-in account

let directory: string;
/** This file's own DATA_DIR: its media/.incoming checks see only its own uploads, not other files' running in parallel. */
let dataDir: string;
let server: S3rver | null = null;
let port = 0;
let t: TestApp;
let admin: string;
let storefront: string;
let s3: S3Client;

async function startS3(): Promise<void> {
  server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
  port = (await server.run()).port;
}

async function stopS3(): Promise<void> {
  if (!server) return;
  const closing = server.close();
  server.httpServer?.closeAllConnections(); // the SDK's keep-alive sockets would hold close() open
  await closing;
  server = null;
}

/** Keys in the bucket (straight from the S3 server, not through the app). */
async function bucketKeys(): Promise<string[]> {
  const out = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (out.Contents ?? []).map((o) => o.Key!).sort();
}

async function objectBytes(key: string): Promise<Buffer | null> {
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return Buffer.from(await out.Body!.transformToByteArray());
  } catch {
    return null;
  }
}

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  await startS3();
  const endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'media-data-'));
  t = await startTestApp({
    dataDir,
    media: { storage: 's3', s3: { bucket: BUCKET, region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS, keyPrefix: 'media/' } },
  });
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stopS3();
  s3?.destroy();
  if (directory) await fs.rm(directory, { recursive: true, force: true });
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

describe('S3 media storage', () => {
  it('leaves no temporary file behind when an upload is refused for its fields or its bytes', async () => {
    const incoming = async () => (await fs.readdir(path.resolve(dataDir, 'media', '.incoming')).catch(() => [] as string[])).filter((f) => f.length === 36);
    const longAlt = await upload(t, admin, { file: { bytes: await png(8, 8, '#00f'), type: 'image/png' }, alt: 'a'.repeat(501) });
    expect(longAlt.status, longAlt.text).toBe(422);
    expect(longAlt.body.error.details).toEqual([{ field: 'alt', message: 'at most 500 characters' }]);
    const empty = await upload(t, admin, { file: { bytes: Buffer.alloc(0), type: 'image/png' } });
    expect(empty.status, empty.text).toBe(422);
    expect(await incoming()).toEqual([]);
  });

  it('stores an upload in the bucket (not on local disk) and redirects GET /media/:id to a presigned URL that serves the bytes', async () => {
    const bytes = await png(64, 48, '#0a0');
    const res = await upload(t, admin, { file: { bytes, type: 'image/png' }, alt: 'green' });
    expect(res.status, res.text).toBe(201);
    const asset = res.body.data;
    const row = await t.app.db.mediaAsset.findUniqueOrThrow({ where: { id: asset.id } });
    const key = `media/${row.organizationId}/${asset.id}`;
    expect(await bucketKeys()).toContain(key);
    expect((await objectBytes(key))?.equals(bytes)).toBe(true);
    // nothing kept locally: the temporary upload file was moved to the bucket
    await expect(fs.access(path.resolve(t.app.config.dataDir, 'media', row.organizationId, asset.id))).rejects.toThrow();
    const incoming = await fs.readdir(path.resolve(t.app.config.dataDir, 'media', '.incoming')).catch(() => []);
    expect(incoming.filter((f) => f.length === 36)).toEqual([]);

    // the asset's own url is the presigned GET too
    expect(asset.url.startsWith(`http://127.0.0.1:${port}/${BUCKET}/${key}?`)).toBe(true);

    const redirect = await fetch(`${t.url}/api/media/${asset.id}`, { headers: { 'x-api-key': storefront }, redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location).toContain('X-Amz-Signature=');
    expect(location).toContain(`X-Amz-Expires=${t.app.config.media.signedUrlTtlSeconds}`);
    const served = await fetch(location);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    // The presigned URL is checked by the S3 server: an expired one is refused. (s3rver checks a
    // presigned URL's key id and expiry but, unlike S3, neither object ACLs nor V4 signature bytes,
    // so tampering and anonymous access are S3's own guarantees, not tested here.)
    const stale = new URL(location);
    stale.searchParams.set('X-Amz-Date', '20200101T000000Z');
    expect((await fetch(stale)).status).toBe(403);

    const signed = await t.request(`/api/media/${asset.id}?signed=true`, { apiKey: storefront });
    expect(signed.status).toBe(200);
    expect(signed.body.data.url).toContain('X-Amz-Signature=');
    expect(new Date(signed.body.data.expiresAt).getTime()).toBeGreaterThan(Date.now() + 60_000);
    const viaSigned = await fetch(signed.body.data.url);
    expect(viaSigned.status).toBe(200);
    expect(Buffer.from(await viaSigned.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('stores renditions in the bucket and serves them through include=media', async () => {
    const entity = await createEntity(t, admin, { status: 'active' });
    const asset = (await upload(t, admin, { file: { bytes: await png(1000, 400, '#a0a') } })).body.data;
    expect((await t.request('/api/media/attach', { apiKey: admin, body: { entityId: entity.id, mediaAssetId: asset.id, role: 'gallery' } })).status).toBe(201);
    const run = await t.request('/api/jobs/run?limit=50', { apiKey: admin });
    expect(run.status, run.text).toBe(200);

    const renditions = await t.app.db.mediaAsset.findMany({ where: { derivedFromAssetId: asset.id }, orderBy: { width: 'asc' } });
    expect(renditions.map((r) => [r.width, r.mimeType, r.origin])).toEqual([
      [320, 'image/webp', 'generated'],
      [960, 'image/webp', 'generated'],
    ]);
    const keys = await bucketKeys();
    for (const r of renditions) expect(keys).toContain(`media/${r.organizationId}/${r.id}`);

    const read = await t.request(`/api/catalog/entities/${entity.id}?include=media`, { apiKey: storefront });
    const served = await fetch(read.body.data.media[0].renditions[0].url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(renditions[0]!.size);
  });

  it('a delete removes the asset and its renditions from the bucket after commit', async () => {
    const asset = (await upload(t, admin, { file: { bytes: await png(500, 500, '#333') } })).body.data;
    await t.request('/api/jobs/run?limit=50', { apiKey: admin });
    const rows = await t.app.db.mediaAsset.findMany({ where: { OR: [{ id: asset.id }, { derivedFromAssetId: asset.id }] } });
    expect(rows).toHaveLength(2); // the original and its 320 px rendition
    const keys = rows.map((r) => `media/${r.organizationId}/${r.id}`);
    expect(await bucketKeys()).toEqual(expect.arrayContaining(keys));

    const res = await t.request(`/api/media/${asset.id}`, { method: 'DELETE', apiKey: admin });
    expect(res.status, res.text).toBe(200);
    const left = await bucketKeys();
    for (const key of keys) expect(left).not.toContain(key);
    expect(await t.app.db.mediaAsset.count({ where: { id: { in: rows.map((r) => r.id) } } })).toBe(0);
  });

  it('when the store is down at delete time the row goes, the objects stay until the removal job succeeds (retried while still down)', async () => {
    const bytes = await png(40, 40, '#f0f');
    const asset = (await upload(t, admin, { file: { bytes } })).body.data;
    const row = await t.app.db.mediaAsset.findUniqueOrThrow({ where: { id: asset.id } });
    const key = `media/${row.organizationId}/${asset.id}`;

    await stopS3();
    // uploads cannot be stored meanwhile: 503 with the envelope, no row written
    const before = await t.app.db.mediaAsset.count();
    const refused = await upload(t, admin, { file: { bytes: await png(41, 41, '#0ff') } });
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await t.app.db.mediaAsset.count()).toBe(before);

    const res = await t.request(`/api/media/${asset.id}`, { method: 'DELETE', apiKey: admin });
    expect(res.status, res.text).toBe(200);
    expect(await t.app.db.mediaAsset.count({ where: { id: asset.id } })).toBe(0);
    const job = await t.app.db.job.findFirstOrThrow({ where: { taskSlug: 'media/removeObjects', input: { path: ['keys'], array_contains: [row.storageKey] } } });
    expect(job.status).toBe('pending');

    // The job's safety delay has passed (a minute in production): it runs while S3 is still down, fails, and is retried.
    await t.app.db.job.update({ where: { id: job.id }, data: { waitUntil: new Date(Date.now() - 1000) } });
    await t.request('/api/jobs/run?limit=50', { apiKey: admin });
    const failedOnce = await t.app.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(failedOnce.attempts).toBe(1);
    expect(failedOnce.status).toBe('pending');
    expect(failedOnce.error).toBeTruthy();

    await startS3();
    expect((await objectBytes(key))?.equals(bytes)).toBe(true); // still there: the row is gone, the object waits for the job
    await t.app.db.job.update({ where: { id: job.id }, data: { waitUntil: new Date(Date.now() - 1000) } });
    await t.request('/api/jobs/run?limit=50', { apiKey: admin });
    const done = await t.app.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(done.status, done.error ?? '').toBe('succeeded');
    expect(done.output).toEqual({ removed: 1 });
    expect(await objectBytes(key)).toBeNull();
  }, 60_000);

  it('the API content route streams from the bucket as well (signed=true URLs of local stores keep working after a switch)', async () => {
    const bytes = await png(16, 16, '#123');
    const asset = (await upload(t, admin, { file: { bytes } })).body.data;
    const { signMediaUrl } = await import('../../src/modules/media/signing.js');
    const { pathname, search } = new URL(signMediaUrl(t.app.config, asset.id).url);
    const res = await fetch(`${t.url}${pathname}${search}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
