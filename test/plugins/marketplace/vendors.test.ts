// plugins/marketplace, vendors over HTTP: the lifecycle (every legal move, illegal ones 422
// INVALID_TRANSITION), approval blocked by an unapproved required document, documents uploaded
// through the media service, list filters and pagination, permissions (approve and suspend need
// marketplace:admin), and the vendor portal's /vendor/me scoped to the linked user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import type { Store } from '../../orders/helpers.js';
import { M, document, startMarketplace, vendor } from './helpers.js';

let t: TestApp;
let store: Store;
let manager: string;

beforeAll(async () => {
  ({ t, store } = await startMarketplace(
    {},
    {
      apiKeyScopes: { mkt_manager: { prefix: 'cs_mktm_', description: 'marketplace staff', permissions: { marketplace: ['read', 'manage'] } } },
    },
  ));
  manager = await t.apiKey('mkt_manager');
});
afterAll(() => t?.close());

const post = (path: string, apiKey: string, body?: unknown) => t.request(`${M}${path}`, { method: 'POST', apiKey, ...(body ? { body } : {}) });

describe('marketplace vendors', () => {
  it('are 45 routes in /api/doc', async () => {
    const doc = await t.request('/api/doc');
    const ops = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)
      .filter(([p]) => p.startsWith('/api/marketplace/'))
      .flatMap(([p, methods]) =>
        Object.keys(methods)
          .filter((m) => ['get', 'post', 'patch', 'put', 'delete'].includes(m))
          .map((m) => `${m.toUpperCase()} ${p}`),
      );
    expect(ops).toHaveLength(45);
    expect(ops).toEqual(
      expect.arrayContaining([
        'POST /api/marketplace/vendors/{id}/documents/{docId}/approve',
        'PATCH /api/marketplace/vendors/{id}/reviews/{reviewId}',
        'POST /api/marketplace/payouts/run',
        'POST /api/marketplace/vendor/me/orders/{id}/ship',
      ]),
    );
  });

  it('move pending → approved → suspended → approved, and pending → rejected with a reason; other moves are 422', async () => {
    const a = await vendor(t, store.admin, { approved: false });
    expect((await t.request(`${M}/vendors/${a.id}`, { apiKey: store.admin })).body.data.status).toBe('pending');
    // not approvable before its documents are
    const early = await post(`/vendors/${a.id}/approve`, store.admin);
    expect(early.status, early.text).toBe(422);
    expect(early.body.error.code).toBe('VALIDATION_FAILED');
    expect(early.body.error.details.map((d: { message: string }) => d.message).join()).toMatch(/business_registration.*tax_form.*bank_proof/);
    const docs = [];
    for (const kind of ['business_registration', 'tax_form', 'bank_proof']) docs.push(await document(t, store.admin, a.id, kind));
    for (const d of docs.slice(0, 2)) expect((await post(`/vendors/${a.id}/documents/${d}/approve`, manager)).status).toBe(200);
    const rejectedDoc = await post(`/vendors/${a.id}/documents/${docs[2]}/reject`, manager, { reason: 'blurry scan' });
    expect(rejectedDoc.body.data).toMatchObject({ status: 'rejected', reason: 'blurry scan' });
    const stillBlocked = await post(`/vendors/${a.id}/approve`, store.admin);
    expect(stillBlocked.status).toBe(422);
    expect(stillBlocked.text).toMatch(/bank_proof/);
    expect((await t.request(`${M}/vendors/${a.id}`, { apiKey: store.admin })).body.data.status).toBe('pending');
    expect((await post(`/vendors/${a.id}/documents/${docs[2]}/approve`, manager)).status).toBe(200);

    const approved = await post(`/vendors/${a.id}/approve`, store.admin);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved' });
    expect(approved.body.data.approvedAt).toBeTruthy();
    const again = await post(`/vendors/${a.id}/approve`, store.admin);
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('INVALID_TRANSITION');
    expect((await post(`/vendors/${a.id}/reject`, store.admin, { reason: 'late' })).body.error.code).toBe('INVALID_TRANSITION');

    const suspended = await post(`/vendors/${a.id}/suspend`, store.admin, { reason: 'late shipments' });
    expect(suspended.body.data).toMatchObject({ status: 'suspended', statusReason: 'late shipments' });
    expect((await post(`/vendors/${a.id}/suspend`, store.admin)).body.error.code).toBe('INVALID_TRANSITION');
    expect((await post(`/vendors/${a.id}/approve`, store.admin)).body.error.code).toBe('INVALID_TRANSITION');
    const reinstated = await post(`/vendors/${a.id}/reinstate`, store.admin);
    expect(reinstated.body.data).toMatchObject({ status: 'approved', statusReason: null });
    expect((await post(`/vendors/${a.id}/reinstate`, store.admin)).body.error.code).toBe('INVALID_TRANSITION');

    const b = await vendor(t, store.admin, { approved: false });
    const noReason = await post(`/vendors/${b.id}/reject`, store.admin, {});
    expect(noReason.status).toBe(422);
    const rejected = await post(`/vendors/${b.id}/reject`, store.admin, { reason: 'incomplete application' });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', statusReason: 'incomplete application' });
    for (const move of ['approve', 'suspend', 'reinstate']) {
      const r = await post(`/vendors/${b.id}/${move}`, store.admin);
      expect(r.status, move).toBe(422);
      expect(r.body.error.code).toBe('INVALID_TRANSITION');
    }
    const c = await vendor(t, store.admin, { approved: false });
    expect((await post(`/vendors/${c.id}/suspend`, store.admin)).body.error.code).toBe('INVALID_TRANSITION');
    // reinstate is no back door around the documents check
    expect((await post(`/vendors/${c.id}/reinstate`, store.admin)).body.error.code).toBe('INVALID_TRANSITION');
    expect((await t.request(`${M}/vendors/${c.id}`, { apiKey: store.admin })).body.data.status).toBe('pending');
  });

  it('approve, suspend and reinstate need marketplace:admin; the rest marketplace:manage', async () => {
    const v = await vendor(t, store.admin, { approved: false });
    expect((await post(`/vendors/${v.id}/approve`, manager)).status).toBe(403);
    const a = await vendor(t, store.admin);
    expect((await post(`/vendors/${a.id}/suspend`, manager)).status).toBe(403);
    expect((await t.request(`${M}/vendors/${a.id}`, { apiKey: store.admin })).body.data.status).toBe('approved');
    expect((await post(`/vendors/${v.id}/reject`, manager, { reason: 'no' })).status).toBe(200);
    expect((await post('/vendors', store.storefront, { name: 'x', email: 'x@example.com' })).status).toBe(403);
    expect((await t.request(`${M}/vendors`, {})).status).toBe(401);
    const customer = await t.signIn('customer');
    expect((await t.request(`${M}/vendors`, { bearer: customer.token })).status).toBe(403);
  });

  it('documents need a media asset of the organization and a known kind', async () => {
    const v = await vendor(t, store.admin, { approved: false });
    const bad = await post(`/vendors/${v.id}/documents`, store.admin, { kind: 'passport', mediaId: '00000000-0000-4000-8000-000000000000' });
    expect(bad.status).toBe(422);
    const noAsset = await post(`/vendors/${v.id}/documents`, store.admin, { kind: 'tax_form', mediaId: '00000000-0000-4000-8000-000000000000' });
    expect(noAsset.status).toBe(422);
    expect(noAsset.body.error.details[0].field).toBe('mediaId');
    const id = await document(t, store.admin, v.id, 'tax_form');
    const list = await t.request(`${M}/vendors/${v.id}/documents`, { apiKey: store.admin });
    expect(list.body.data).toEqual([expect.objectContaining({ id, kind: 'tax_form', status: 'pending' })]);
    expect((await post(`/vendors/${v.id}/documents/${id}/approve`, store.admin)).status).toBe(200);
    expect((await post(`/vendors/${v.id}/documents/${id}/approve`, store.admin)).body.error.code).toBe('INVALID_TRANSITION');
    // approved → rejected (a document found wrong later), then the vendor cannot be approved on it
    const revoked = await post(`/vendors/${v.id}/documents/${id}/reject`, store.admin, { reason: 'expired' });
    expect(revoked.body.data).toMatchObject({ status: 'rejected', reason: 'expired' });
    expect((await post(`/vendors/${v.id}/documents/${id}/reject`, store.admin, { reason: 'again' })).body.error.code).toBe('INVALID_TRANSITION');
    // another vendor's document is 404 under this vendor
    const w = await vendor(t, store.admin, { approved: false });
    expect((await post(`/vendors/${w.id}/documents/${id}/approve`, store.admin)).status).toBe(404);
  });

  it('list by status and name, paginated with a clamped limit, and patch', async () => {
    const name = `Zebra Goods ${Date.now()}`;
    const z = await vendor(t, store.admin, { approved: false, name });
    const found = await t.request(`${M}/vendors?search=${encodeURIComponent('zebra goods')}&status=pending`, { apiKey: store.admin });
    expect(found.body.data.map((v: { id: string }) => v.id)).toEqual([z.id]);
    const page = await t.request(`${M}/vendors?limit=1000&offset=0`, { apiKey: store.admin });
    expect(page.body.meta.limit).toBe(100);
    expect(page.body.meta.total).toBeGreaterThan(3);
    const patched = await t.request(`${M}/vendors/${z.id}`, { method: 'PATCH', apiKey: store.admin, body: { description: 'Striped things', stripeAccountId: 'acct_123' } });
    expect(patched.body.data).toMatchObject({ description: 'Striped things', stripeAccountId: 'acct_123', name });
    const badEmail = await t.request(`${M}/vendors/${z.id}`, { method: 'PATCH', apiKey: store.admin, body: { email: 'nope' } });
    expect(badEmail.status).toBe(422);
    expect((await t.request(`${M}/vendors/00000000-0000-4000-8000-000000000000`, { apiKey: store.admin })).status).toBe(404);
  });

  it('a linked vendor user reads and edits only its own vendor at /vendor/me; others are 403', async () => {
    const v = await vendor(t, store.admin);
    const me = await t.request(`${M}/vendor/me`, { bearer: v.token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.data.id).toBe(v.id);
    expect(me.body.data).not.toHaveProperty('stripeAccountId');
    const edited = await t.request(`${M}/vendor/me`, { method: 'PATCH', bearer: v.token, body: { description: 'Handmade' } });
    expect(edited.body.data.description).toBe('Handmade');
    // status is not a field the vendor edits
    const sneaky = await t.request(`${M}/vendor/me`, { method: 'PATCH', bearer: v.token, body: { status: 'approved', description: 'x' } });
    expect([200, 422]).toContain(sneaky.status);
    expect((await t.request(`${M}/vendors/${v.id}`, { apiKey: store.admin })).body.data.status).toBe('approved');
    // the admin routes are not the vendor's
    expect((await t.request(`${M}/vendors/${v.id}`, { bearer: v.token })).status).toBe(403);
    // an admin key acts for no vendor; an unlinked vendor-role user neither
    expect((await t.request(`${M}/vendor/me`, { apiKey: store.admin })).status).toBe(403);
    const unlinked = await t.signIn('vendor');
    expect((await t.request(`${M}/vendor/me`, { bearer: unlinked.token })).status).toBe(403);
    // GraphQL answers the same
    const gql = await t.graphql('{ marketplaceVendorMe { id name status } }', {}, { bearer: v.token });
    expect(gql.body.data?.marketplaceVendorMe?.id).toBe(v.id);
  });

  it('a vendor creates catalog entities carrying its vendorId and writes only its own', async () => {
    const v = await vendor(t, store.admin);
    const w = await vendor(t, store.admin);
    const created = await t.request('/api/catalog/entities', {
      bearer: v.token,
      body: { type: 'product', slug: `vendor-bowl-${Date.now()}`, metadata: { vendorId: w.id, glaze: 'celadon' } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.metadata).toEqual({ vendorId: v.id, glaze: 'celadon' });
    const id = created.body.data.id;
    const patch = (token: string, body: unknown) => t.request(`/api/catalog/entities/${id}`, { method: 'PATCH', bearer: token, body });
    expect((await patch(w.token, { slug: `stolen-${Date.now()}` })).status).toBe(404);
    const own = await patch(v.token, { metadata: { vendorId: w.id, glaze: 'tenmoku' } });
    expect(own.status, own.text).toBe(200);
    expect(own.body.data.metadata).toEqual({ vendorId: v.id, glaze: 'tenmoku' });
    expect((await t.request(`/api/catalog/entities/${id}/attributes/en`, { method: 'PUT', bearer: w.token, body: { title: 'Mine now' } })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${id}/attributes/en`, { method: 'PUT', bearer: v.token, body: { title: 'Celadon bowl' } })).status).toBe(200);
    // the shop's own entities are not a vendor's
    const shop = await t.request('/api/catalog/entities', { apiKey: store.admin, body: { type: 'product', slug: `shop-${Date.now()}` } });
    expect((await t.request(`/api/catalog/entities/${shop.body.data.id}`, { method: 'PATCH', bearer: v.token, body: { status: 'archived' } })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${id}`, { method: 'DELETE', bearer: v.token })).status).toBe(403);
  });

  it('a user acts for one vendor only', async () => {
    const v = await vendor(t, store.admin);
    const dup = await post('/vendors', store.admin, { name: 'Twin', email: 'twin@example.com', userId: v.userId });
    expect(dup.status).toBe(409);
    const foreign = await post('/vendors', store.admin, { name: 'Ghost', email: 'ghost@example.com', userId: 'no-such-user' });
    expect(foreign.status).toBe(422);
  });
});
