// The plugin extension interface, through the README's example plugin (plugins/loyalty): its
// route is a REST route, a GraphQL field and an /api/doc entry, permission-checked; its hook
// runs on orders.afterCreate; its task runs through the job runner; its API-key scope mints
// keys. (Boot checks and the disabled case: disabled.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, openStore, placeOrder, product, type Store } from '../orders/helpers.js';
import { loyalty } from '../../plugins/loyalty/index.js';

const plugin = loyalty();
let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, plugins: [plugin] });
  store = await openStore(t);
});
afterAll(() => t?.close());

describe('an enabled plugin', () => {
  it('lists its route in /api/doc under its tag, with its permission', async () => {
    const doc = await t.request('/api/doc');
    expect(doc.status).toBe(200);
    const op = doc.body.paths['/api/loyalty/stamps']?.get;
    expect(op, 'GET /loyalty/stamps in /api/doc').toBeDefined();
    expect(op.tags).toEqual(['loyalty']);
    expect(JSON.stringify(op)).toContain('loyalty:read');
  });

  it('stamps each order through its hook and answers over REST and GraphQL with its own API-key scope', async () => {
    const kiosk = await t.apiKey('loyalty');
    expect(kiosk.startsWith('cs_loyalty_')).toBe(true);
    const email = `stamp-${Date.now()}@example.com`;
    const entityId = await product(store, { price: 1500, stock: 10 });
    const first = await placeOrder(store, [{ entityId }], { body: { email } });
    await placeOrder(store, [{ entityId }], { body: { email: email.toUpperCase() } });
    expect(first.customerEmail?.toLowerCase()).toBe(email);

    const rest = await t.request(`/api/loyalty/stamps?email=${encodeURIComponent(email)}`, { apiKey: kiosk });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.data).toEqual({ email, stamps: 2, rewards: 0 });

    const gql = await t.graphql('query($e: String!) { loyaltyStamps(email: $e) { email stamps rewards } }', { e: email }, { apiKey: kiosk });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data?.loyaltyStamps).toEqual({ email, stamps: 2, rewards: 0 });
  });

  it('checks permission and input like every core route', async () => {
    expect((await t.request('/api/loyalty/stamps?email=a@example.com')).status).toBe(401);
    const denied = await t.request('/api/loyalty/stamps?email=a@example.com', { apiKey: store.storefront });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    const bad = await t.request('/api/loyalty/stamps?email=not-an-email', { apiKey: store.admin });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.some((d: { field: string }) => d.field === 'email')).toBe(true);
  });

  it('runs its task through the job runner, scoped to the organization', async () => {
    const email = `expire-${Date.now()}@example.com`;
    const entityId = await product(store, { price: 900, stock: 5 });
    await placeOrder(store, [{ entityId }], { body: { email } });
    const org = await t.app.services.organizations.defaultOrganization();
    await t.app.services.jobs.enqueue({ task: 'loyalty/expire-stamps', input: { olderThanDays: 0 }, organizationId: org.id });
    const run = await t.request('/api/jobs/run', { apiKey: store.admin });
    expect(run.status, run.text).toBe(200);
    const outcome = run.body.data.jobs.find((j: { taskSlug?: string }) => j.taskSlug === 'loyalty/expire-stamps') ?? run.body.data.jobs[0];
    expect(outcome.status).toBe('succeeded');
    const after = await t.request(`/api/loyalty/stamps?email=${encodeURIComponent(email)}`, { apiKey: store.admin });
    expect(after.body.data.stamps).toBe(0);
  });
});
