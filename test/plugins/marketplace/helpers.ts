// Shared by the marketplace tests: an app with the plugin enabled, vendors onboarded over HTTP
// (documents uploaded through the media service, approved), vendor users signed in, vendor
// products (catalog entities carrying metadata.vendorId) and checkouts of mixed carts.
import { expect } from 'vitest';
import { startTestApp, type TestApp } from '../../support/app.js';
import { ORDER_TEST_CONFIG, openStore, pay, product, guestCart, checkout, type Store, type ProductOptions } from '../../orders/helpers.js';
import { upload, PDF } from '../../media/helpers.js';
import { marketplace, type MarketplaceOptions } from '../../../plugins/marketplace/index.js';

export const M = '/api/marketplace';

export async function startMarketplace(options: MarketplaceOptions = {}, config: Record<string, unknown> = {}): Promise<{ t: TestApp; store: Store }> {
  const t = await startTestApp({ ...ORDER_TEST_CONFIG, rateLimit: { enabled: false }, plugins: [marketplace(options)], ...config });
  const store = await openStore(t);
  return { t, store };
}

export interface Vendor {
  id: string;
  /** The vendor user's bearer token (role vendor, linked to the vendor). */
  token: string;
  userId: string;
}

/** A vendor with a linked user; `approved` uploads and approves the three documents first. */
export async function vendor(t: TestApp, admin: string, options: { approved?: boolean; name?: string; organizationId?: string } = {}): Promise<Vendor> {
  const user = await t.signIn('vendor', options.organizationId ? { organizationId: options.organizationId } : {});
  const created = await t.request(`${M}/vendors`, { apiKey: admin, body: { name: options.name ?? `Vendor ${user.email}`, email: user.email, userId: user.userId } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.id as string;
  if (options.approved ?? true) {
    for (const kind of ['business_registration', 'tax_form', 'bank_proof']) {
      const doc = await document(t, admin, id, kind);
      const ok = await t.request(`${M}/vendors/${id}/documents/${doc}/approve`, { apiKey: admin, method: 'POST' });
      expect(ok.status, ok.text).toBe(200);
    }
    const approved = await t.request(`${M}/vendors/${id}/approve`, { apiKey: admin, method: 'POST' });
    expect(approved.status, approved.text).toBe(200);
  }
  // sign in again: the session's actor is resolved per request, so the same token now acts for the vendor
  return { id, token: user.token, userId: user.userId };
}

export async function document(t: TestApp, admin: string, vendorId: string, kind: string): Promise<string> {
  const media = await upload(t, admin, { file: { bytes: PDF, type: 'application/pdf', name: `${kind}.pdf` } });
  expect([200, 201], media.text).toContain(media.status); // the same bytes are one asset (200 the second time)
  const doc = await t.request(`${M}/vendors/${vendorId}/documents`, { apiKey: admin, body: { kind, mediaId: media.body.data.id } });
  expect(doc.status, doc.text).toBe(201);
  return doc.body.data.id as string;
}

/** A product of a vendor: a catalog entity whose metadata.vendorId names it. */
export async function vendorProduct(store: Store, vendorId: string | null, options: ProductOptions = {}): Promise<string> {
  const id = await product(store, options);
  if (vendorId) {
    const res = await store.t.request(`/api/catalog/entities/${id}`, { method: 'PATCH', apiKey: store.admin, body: { metadata: { vendorId } } });
    expect(res.status, res.text).toBe(200);
  }
  return id;
}

/** A guest checkout of these items; returns the order. */
export async function buy(store: Store, items: Array<{ entityId: string; quantity?: number }>, options: { bearer?: string } = {}): Promise<any> {
  const cart = await guestCart(store, items, options.bearer ? undefined : store.storefront);
  const res = await checkout(store, cart, options.bearer ? { bearer: options.bearer } : {});
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** A sub-order of vendor `v` bought by `customer`, paid, and moved through `actions` in the vendor portal. */
export async function sale(store: Store, v: Vendor, customer: { token: string }, price: number, quantity = 1, actions: string[] = ['confirm', 'ship', 'deliver']) {
  const p = await vendorProduct(store, v.id, { price, stock: 20 });
  const placed = await pay(store, await buy(store, [{ entityId: p, quantity }], { bearer: customer.token }));
  const [sub] = (await store.t.request(`${M}/sub-orders?orderId=${placed.id}`, { apiKey: store.admin })).body.data;
  for (const action of actions) {
    const res = await store.t.request(`${M}/vendor/me/orders/${sub.id}/${action}`, {
      method: 'POST',
      bearer: v.token,
      ...(action === 'ship' ? { body: { trackingNumber: 'T', carrier: 'UPS' } } : {}),
    });
    expect(res.status, res.text).toBe(200);
  }
  return { sub, order: placed, entityId: p };
}
