// The SDK's generated types must match the schema: `npm run client:generate` rewrites
// client/src/generated/api.ts, and this fails when someone changed an operation without it.
// The offline document (no server) must also be the one the running server serves.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { clientTypesSource, offlineOpenApiDocument } from '../../scripts/openapi-offline.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let current: string;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('generated client types', () => {
  it('are up to date (run `npm run client:generate` when this fails)', async () => {
    const committed = fs.readFileSync(path.join(PACKAGE_ROOT, 'client/src/generated/api.ts'), 'utf8');
    current = await clientTypesSource();
    expect(committed === current, 'client/src/generated/api.ts is stale: run npm run client:generate').toBe(true);
  }, 180_000);

  it('come from the same document /api/doc serves', async () => {
    const served = (await t.request('/api/doc')).body;
    const offline = await offlineOpenApiDocument();
    // Only the version and the cookie name depend on the running configuration.
    expect({ ...served, info: null, components: { ...served.components, securitySchemes: null } }).toEqual({
      ...offline,
      info: null,
      components: { ...(offline.components as object), securitySchemes: null },
    });
  }, 180_000);

  it('would notice a change', async () => {
    const doc = await offlineOpenApiDocument();
    (doc.paths as Record<string, unknown>)['/api/extra'] = { get: { responses: { 200: { description: 'x' } } } };
    expect(await clientTypesSource(doc)).not.toBe(current);
  }, 180_000);
});
