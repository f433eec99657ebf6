// Path parameters of plugin routes are typed by the route vocabulary itself (issue 32): a route
// whose `:param` has no declared type, or a type loose enough to let a path-traversal, SQL or
// 3,000-character value through, fails at boot naming the plugin and the route, whether it is
// declared through ctx.routes or ctx.defineOperation. With every shipped plugin enabled, each
// malformed id is 422 naming the parameter before any handler runs (GET /api/layaways/not-a-uuid
// and POST /api/layaways/{id}/forfeit answered 500). (Own file: the boot checks must run before
// this process's schema is built.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestApp, type TestApp } from '../support/app.js';
import { definePlugin } from '../../src/plugins/index.js';
import { createApp } from '../../src/app.js';
import { resolveConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';
import { operations } from '../../src/graphql/operation.js';
import { registryRoutes } from '../security/registry-inputs.js';
import { ORDER_TEST_CONFIG, openStore, type Store } from '../orders/helpers.js';
import { MALFORMED_IDS, SHIPPED_PLUGINS, shippedPlugins } from './shipped.js';

const logger = createLogger('silent');
// Boot checks run before the database is reached: this address is never dialled.
const base = { databaseUrl: 'postgresql://nobody@127.0.0.1:1/none', auth: { secret: 'x'.repeat(40) }, logLevel: 'silent' as const };
const boot = (routes: (ctx: any) => void) => createApp(resolveConfig({ ...base, plugins: [definePlugin({ id: 'untyped', version: '1.0.0', routes })] }), { logger });

describe('boot refuses an untyped path parameter', () => {
  it('through ctx.routes: no declared type, or a type that lets a malformed id through', async () => {
    await expect(
      boot((ctx) =>
        ctx
          .routes({ tag: 'x', prefix: '/untyped' })
          .get('/:id')
          .handler(() => null),
      ),
    ).rejects.toThrow(/plugin untyped: route GET \/api\/untyped\/:id: path parameter :id has no declared type/);
    await expect(
      boot((ctx) =>
        ctx
          .routes({ tag: 'x', prefix: '/untyped', params: { id: z.string() } })
          .post('/:id/go')
          .handler(() => null),
      ),
    ).rejects.toThrow(/plugin untyped: route POST \/api\/untyped\/:id\/go: path parameter :id accepts/);
    expect(operations.has('untypedGoCreate')).toBe(false);
  });

  it('through ctx.defineOperation', async () => {
    const define = (input: Record<string, z.core.$ZodType>) => (ctx: any) =>
      ctx.defineOperation({
        name: 'untypedThing',
        kind: 'query',
        summary: 's',
        rest: { method: 'GET', path: '/untyped/:id' },
        access: 'public',
        input,
        output: 'JSON',
        resolve: () => null,
      });
    await expect(boot(define({ id: z.string().min(1) }))).rejects.toThrow(/plugin untyped: route GET \/api\/untyped\/:id: path parameter :id accepts/);
    await expect(boot(define({}))).rejects.toThrow(/plugin untyped: route GET \/api\/untyped\/:id: path parameter :id has no declared type/);
    expect(operations.has('untypedThing')).toBe(false);
  });
});

describe('with every shipped plugin enabled', () => {
  let t: TestApp;
  let store: Store;
  beforeAll(async () => {
    t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { enabled: false }, plugins: shippedPlugins() });
    store = await openStore(t);
  }, 240_000);
  afterAll(() => t?.close());

  it('answers every malformed id on every plugin route with a path parameter 422 naming the parameter', async () => {
    const routes = registryRoutes().filter((r) => r.path.includes(':') && SHIPPED_PLUGINS.some((p) => r.path.startsWith(p.prefix)));
    // layaway, channel and marketplace declare routes with path parameters.
    expect(routes.length).toBeGreaterThan(30);
    for (const prefix of ['/layaways', '/channel', '/marketplace'])
      expect(
        routes.some((r) => r.path.startsWith(prefix)),
        prefix,
      ).toBe(true);
    const problems: string[] = [];
    for (const route of routes) {
      const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
      for (const bad of MALFORMED_IDS) {
        for (const name of names) {
          // The other parameters get a well-formed id, so only `name` can be the one refused.
          const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) => encodeURIComponent(p === name ? bad : '00000000-0000-4000-8000-000000000000'));
          const res = await t.request(`/api${path}`, { method: route.method, apiKey: store.admin, ...(route.method === 'GET' ? {} : { body: {} }) });
          const fields = (res.body?.error?.details ?? []).map((d: { field: string }) => d.field);
          if (res.status !== 422 || !fields.includes(name))
            problems.push(`${route.method} ${route.path} with ${name}=${JSON.stringify(bad.slice(0, 20))} → ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
