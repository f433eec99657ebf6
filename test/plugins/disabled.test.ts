// A deployment without plugins shows none of theirs: no REST route, no GraphQL field, no
// /api/doc entry, no task. And boot refuses a bad plugin list with the plugin named: duplicate
// ids, missing or misordered dependencies, task slugs claimed twice or owned by the core,
// routes another operation owns. (Own file: routes are declared before this process's schema
// is built, and the interface test's process has the example plugin enabled.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestApp, type TestApp } from '../support/app.js';
import { definePlugin } from '../../src/plugins/index.js';
import { createApp } from '../../src/app.js';
import { resolveConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';
import { tasks } from '../../src/jobs/tasks.js';
import { operations } from '../../src/graphql/operation.js';

const logger = createLogger('silent');
const make = (id: string, extra: Record<string, unknown> = {}) => definePlugin({ id, version: '1.0.0', ...extra });
// Boot checks run before the database is reached: this address is never dialled.
const base = { databaseUrl: 'postgresql://nobody@127.0.0.1:1/none', auth: { secret: 'x'.repeat(40) }, logLevel: 'silent' as const };

describe('boot checks', () => {
  it('refuses a plugin listed twice, a missing or misordered dependency and a task slug claimed twice', () => {
    const a = make('alpha');
    expect(() => resolveConfig({ plugins: [a, make('alpha')] })).toThrow(/plugin alpha is listed twice/);
    expect(() => resolveConfig({ plugins: [make('beta', { requires: ['alpha'] })] })).toThrow(/requires plugin alpha, which is not in config.plugins/);
    expect(() => resolveConfig({ plugins: [make('beta', { requires: ['alpha'] }), a] })).toThrow(/requires plugin alpha, which is listed after it/);
    expect(() => resolveConfig({ plugins: [a, make('beta', { requires: ['alpha'] })] })).not.toThrow();
    const task = { slug: 'shared/sweep', handler: () => null };
    expect(() => resolveConfig({ plugins: [make('one', { tasks: [task] }), make('two', { tasks: [task] })] })).toThrow(/task shared\/sweep is declared by plugins one and two/);
  });

  it('refuses a task slug the core defines and a route or field name another operation owns', async () => {
    const coreTask = make('sweeper', { tasks: [{ slug: 'jobs/reap-stale', handler: () => null }] });
    await expect(createApp(resolveConfig({ ...base, plugins: [coreTask] }), { logger })).rejects.toThrow(/plugin sweeper: task jobs\/reap-stale is already defined/);
    const clash = make('clash', {
      routes: (ctx: any) =>
        ctx
          .routes({ tag: 'orders', prefix: '/orders', params: { orderId: z.uuid() } })
          .get('/:orderId')
          .name('clashOrder')
          .handler(() => null),
    });
    await expect(createApp(resolveConfig({ ...base, plugins: [clash] }), { logger })).rejects.toThrow(
      /plugin clash: route GET \/api\/orders\/:orderId of operation clashOrder is already declared by operation \w+/,
    );
    const sameName = make('samename', {
      routes: (ctx: any) =>
        ctx
          .routes({ tag: 'x', prefix: '/samename' })
          .get('/')
          .name('jobsRun')
          .handler(() => null),
    });
    await expect(createApp(resolveConfig({ ...base, plugins: [sameName] }), { logger })).rejects.toThrow(/plugin samename: operation jobsRun is declared twice/);
    expect(operations.has('clashOrder')).toBe(false);
  });
});

describe('without plugins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('has none of the example plugin’s routes, fields or tasks', async () => {
    const doc = await t.request('/api/doc');
    expect(Object.keys(doc.body.paths).filter((p) => p.startsWith('/api/loyalty'))).toEqual([]);
    const admin = await t.apiKey('admin');
    expect((await t.request('/api/loyalty/stamps?email=a@example.com', { apiKey: admin })).status).toBe(404);
    const gql = await t.graphql('{ loyaltyStamps(email: "a@example.com") }', {}, { apiKey: admin });
    expect(gql.body.errors?.[0]?.message).toMatch(/Cannot query field "loyaltyStamps"/);
    expect(tasks.get('loyalty/expire-stamps')).toBeUndefined();
    // Nor the channel connector's (plugins/channel): no routes, no tasks.
    expect(Object.keys(doc.body.paths).filter((p) => p.startsWith('/api/channel'))).toEqual([]);
    expect((await t.request('/api/channel/stores', { apiKey: admin })).status).toBe(404);
    expect(tasks.slugs().filter((slug) => slug.startsWith('channel/'))).toEqual([]);
    // and its API-key scope does not exist
    await expect(t.apiKey('loyalty')).rejects.toThrow();
  });

  it("has none of the point-of-sale and layaway plugins' routes, fields, tables in use or key scope", async () => {
    const doc = await t.request('/api/doc');
    expect(Object.keys(doc.body.paths).filter((p) => p.startsWith('/api/pos') || p.startsWith('/api/layaways'))).toEqual([]);
    const admin = await t.apiKey('admin');
    expect((await t.request('/api/pos/auth/pin-login', { apiKey: admin, body: { operatorId: 'x', pin: '1234', registerId: 'r' } })).status).toBe(404);
    expect((await t.request('/api/pos/auth/pin', { method: 'PUT', apiKey: admin, body: { operatorId: 'x', pin: '1234' } })).status).toBe(404);
    expect((await t.request('/api/layaways', { apiKey: admin })).status).toBe(404);
    const gql = await t.graphql('mutation { posPinLogin(operatorId: "x", pin: "1234", registerId: "r") }', {}, { apiKey: admin });
    expect(gql.body.errors?.[0]?.message).toMatch(/Cannot query field "posPinLogin"/);
    await expect(t.apiKey('pos')).rejects.toThrow();
    expect(await t.app.db.posShift.count()).toBe(0);
  });

  it("has none of the plugins' analytics models", async () => {
    const admin = await t.apiKey('admin');
    const meta = await t.request('/api/analytics/meta', { apiKey: admin });
    expect(meta.status).toBe(200);
    expect(meta.body.data.map((m: { name: string }) => m.name).sort()).toEqual(['Customers', 'Inventory', 'OrderLineItems', 'Orders']);
    const query = await t.request('/api/analytics/query', { apiKey: admin, body: { measures: ['LayawayPlans.count'] } });
    expect(query.status).toBe(422);
    expect(query.body.error.details[0].message).toMatch(/unknown model LayawayPlans/);
  });

  it('has none of the marketplace’s routes, tasks, events or checkout hook', async () => {
    const doc = await t.request('/api/doc');
    expect(Object.keys(doc.body.paths).filter((p) => p.startsWith('/api/marketplace'))).toEqual([]);
    const admin = await t.apiKey('admin');
    expect((await t.request('/api/marketplace/vendors', { apiKey: admin })).status).toBe(404);
    expect(tasks.get('marketplace/payouts')).toBeUndefined();
    const hook = await t.request('/api/webhooks', { method: 'POST', apiKey: admin, body: { url: 'https://example.com/hook', events: ['marketplace.subOrder.create'] } });
    expect(hook.status).toBe(422);
  });
});
