// The route vocabulary's outputs: `.output(ref)`, `.outputList(ref)` and `.output(ref)` on a
// paginated route give typed GraphQL fields (selected field by field), the same bodies over REST
// and typed /api/doc answers; a route without an output still answers JSON. (Own file: a plugin
// is activated once per process, before its schema is built.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getNamedType } from 'graphql';
import { startTestApp, type TestApp } from '../support/app.js';
import { definePlugin } from '../../src/plugins/index.js';
import type { PluginRouteContext } from '../../src/plugins/routes.js';
import { pluginObject } from '../../src/plugins/types.js';
import { buildSchema } from '../../src/schema.js';
import { createApp } from '../../src/app.js';
import { resolveConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';

interface Tile {
  id: string;
  label: string;
  price: number;
  placedAt: string;
  note: string | null;
}
const tiles: Tile[] = Array.from({ length: 5 }, (_, i) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  label: `tile ${i}`,
  price: 3_000_000_000 + i,
  placedAt: new Date(Date.UTC(2026, 0, i + 1)).toISOString(),
  note: i % 2 ? 'odd' : null,
}));

function routes(ctx: PluginRouteContext): void {
  const TileRef = pluginObject<Tile>('OutputsTestTile', 'A tile', { id: 'UUID', label: 'String', price: 'MinorUnits', placedAt: 'DateTime', note: 'String?' });
  const r = ctx.routes({ tag: 'tiles', prefix: '/tiles', params: { id: z.uuid() } });
  r.get('/')
    .name('outputsTiles')
    .summary('A page of tiles')
    .auth()
    .paginated()
    .output(TileRef)
    .input({ limit: z.number().int().min(1).max(100).default(2), offset: z.number().int().min(0).default(0) })
    .handler(({ input }) => ({ data: tiles.slice(input.offset, input.offset + input.limit), meta: { total: tiles.length, limit: input.limit, offset: input.offset } }));
  r.get('/all')
    .name('outputsTilesAll')
    .summary('Every tile')
    .auth()
    .outputList(TileRef)
    .handler(() => tiles);
  r.get('/one/:id')
    .name('outputsTile')
    .summary('A tile')
    .auth()
    .output(TileRef)
    .handler(({ params }) => tiles.find((x) => x.id === params.id) ?? null);
  r.get('/stats')
    .name('outputsStats')
    .summary('Untyped')
    .auth()
    .handler(() => ({ anything: [1, 'two'] }));
}

describe('route outputs at boot', () => {
  it('refuse .outputList on a paginated route at boot', async () => {
    const bad = definePlugin({
      id: 'bad-outputs',
      version: '1.0.0',
      routes: (ctx) =>
        ctx
          .routes({ tag: 'x', prefix: '/bad-outputs' })
          .get('/')
          .paginated()
          .outputList({ name: 'OutputsTestTile' })
          .handler(() => null),
    });
    const config = resolveConfig({ databaseUrl: 'postgresql://nobody@127.0.0.1:1/none', auth: { secret: 'x'.repeat(40) }, logLevel: 'silent', plugins: [bad] });
    await expect(createApp(config, { logger: createLogger('silent') })).rejects.toThrow(/paginated route takes .output\(item\)/);
  });
});

describe('route outputs', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ rateLimit: { enabled: false }, plugins: [definePlugin({ id: 'outputs', version: '1.0.0', routes })] });
    key = await t.apiKey('admin');
  }, 240_000);
  afterAll(() => t?.close());

  it('type the GraphQL fields: a page, a list, an object; JSON without an output', () => {
    const query = buildSchema().getQueryType()!.getFields();
    expect(getNamedType(query.outputsTiles!.type).name).toBe('OutputsTestTileList');
    expect(String(query.outputsTilesAll!.type)).toBe('[OutputsTestTile!]');
    expect(String(query.outputsTile!.type)).toBe('OutputsTestTile');
    expect(String(query.outputsStats!.type)).toBe('JSON');
  });

  it('answer GraphQL selections and the same bodies over REST', async () => {
    const gql = await t.graphql(
      `{ outputsTiles(limit: 2, offset: 1) { data { id price note } meta { total limit offset } } outputsTilesAll { label } outputsTile(id: "${tiles[3]!.id}") { placedAt price } outputsStats }`,
      {},
      { apiKey: key },
    );
    expect(gql.body.errors, JSON.stringify(gql.body.errors)).toBeUndefined();
    expect(gql.body.data).toEqual({
      outputsTiles: { data: tiles.slice(1, 3).map(({ id, price, note }) => ({ id, price, note })), meta: { total: 5, limit: 2, offset: 1 } },
      outputsTilesAll: tiles.map(({ label }) => ({ label })),
      outputsTile: { placedAt: tiles[3]!.placedAt, price: 3_000_000_003 },
      outputsStats: { anything: [1, 'two'] },
    });
    const page = await t.request('/api/tiles?limit=2&offset=1', { apiKey: key });
    expect(page.body).toEqual({ data: tiles.slice(1, 3), meta: { total: 5, limit: 2, offset: 1 } });
    expect((await t.request('/api/tiles/all', { apiKey: key })).body).toEqual({ data: tiles });
    expect((await t.request(`/api/tiles/one/${tiles[0]!.id}`, { apiKey: key })).body).toEqual({ data: tiles[0] });
    expect((await t.request('/api/tiles/stats', { apiKey: key })).body).toEqual({ data: { anything: [1, 'two'] } });
  });

  it('document the typed answers in /api/doc', async () => {
    const doc = (await t.request('/api/doc')).body;
    const text = JSON.stringify(doc.paths['/api/tiles/one/{id}'].get.responses['200']) + JSON.stringify(doc.components?.schemas ?? {});
    for (const field of ['label', 'price', 'placedAt', 'note']) expect(text).toContain(field);
  });
});
