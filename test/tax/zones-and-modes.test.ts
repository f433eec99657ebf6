// Tax by destination (zone rates), tax-inclusive prices, exemptions by customer group and a
// signed-in customer's own groups at checkout — through HTTP on real PostgreSQL. Every store here
// is its own organization, so default classes and settings do not leak between tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, ADDRESS, checkout, guestCart, openStore, pay, product, setSettings, type Store } from '../orders/helpers.js';
import { auditOf, otherOrganization, unique } from '../inventory/helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
});
afterAll(() => t?.close());

async function freshStore(): Promise<Store & { orgId: string }> {
  const org = await otherOrganization(t);
  return { ...(await openStore(t, { organizationId: org.id })), orgId: org.id };
}

async function taxClass(store: Store, rateBps: number, isDefault = true): Promise<string> {
  const res = await t.request('/api/tax/classes', {
    apiKey: store.admin,
    body: {
      name: unique('c')
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-'),
      rateBps,
      isDefault,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function rate(store: Store, body: Record<string, unknown>): Promise<any> {
  const res = await t.request('/api/tax/rates', { apiKey: store.admin, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function orderFor(store: Store, items: Array<{ entityId: string; quantity?: number }>, address: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<any> {
  const cart = await guestCart(store, items);
  const res = await checkout(store, cart, { body: { shippingAddress: { ...ADDRESS, ...address }, ...extra } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

describe('tax rates by zone', () => {
  it('creates, lists, filters, updates and deletes; audited; normalizes region and postal pattern', async () => {
    const store = await freshStore();
    const standard = await taxClass(store, 1000);
    const us = await rate(store, { taxClassId: standard, countryCode: 'us', rateBps: 500, name: 'US base' });
    expect(us).toMatchObject({ taxClassId: standard, countryCode: 'US', region: null, postalPattern: null, rateBps: 500, name: 'US base' });
    const ca = await rate(store, { taxClassId: standard, countryCode: 'US', region: 'ca', rateBps: 725 });
    expect(ca.region).toBe('US-CA');
    const la = await rate(store, { taxClassId: standard, countryCode: 'US', region: 'US-CA', postalPattern: '902*', rateBps: 950 });
    expect(la.postalPattern).toBe('902*');
    const uk = await rate(store, { taxClassId: standard, countryCode: 'GB', postalPattern: 'sw1a 1aa', rateBps: 2000 });
    expect(uk.postalPattern).toBe('SW1A1AA');

    const list = await t.request('/api/tax/rates', { apiKey: store.admin });
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: any) => r.id)).toEqual([uk.id, us.id, ca.id, la.id]);
    const onlyUs = await t.request('/api/tax/rates?countryCode=US', { apiKey: store.admin });
    expect(onlyUs.body.data).toHaveLength(3);

    // Clearing the pattern would make it the same zone as the US-CA rate: 409, nothing changed.
    const clash = await t.request(`/api/tax/rates/${la.id}`, { method: 'PATCH', apiKey: store.admin, body: { rateBps: 1000, postalPattern: null } });
    expect(clash.status, clash.text).toBe(409);
    const patched = await t.request(`/api/tax/rates/${la.id}`, { method: 'PATCH', apiKey: store.admin, body: { rateBps: 1000, postalPattern: '9021*' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ rateBps: 1000, postalPattern: '9021*', region: 'US-CA' });
    expect((await auditOf(t, store.admin, 'tax_rate', la.id))[0]).toMatchObject({ event: 'tax.rateUpdate', before: { rateBps: 950 }, after: { rateBps: 1000 } });
    const deleted = await t.request(`/api/tax/rates/${la.id}`, { method: 'DELETE', apiKey: store.admin });
    expect(deleted.status).toBe(200);
    expect((await t.request('/api/tax/rates', { apiKey: store.admin })).body.data.map((r: any) => r.id)).toEqual([uk.id, us.id, ca.id]);
  });

  it('refuses duplicates (409), bad input (422), unknown ids (404); keeps organizations apart', async () => {
    const store = await freshStore();
    const standard = await taxClass(store, 1000);
    await rate(store, { taxClassId: standard, countryCode: 'DE', rateBps: 1900 });
    const dup = await t.request('/api/tax/rates', { apiKey: store.admin, body: { taxClassId: standard, countryCode: 'de', rateBps: 700 } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    for (const body of [
      { taxClassId: standard, countryCode: 'DEU', rateBps: 1 },
      { taxClassId: standard, countryCode: 'DE', rateBps: -1 },
      { taxClassId: standard, countryCode: 'DE', rateBps: 10_001 },
      { taxClassId: standard, countryCode: 'DE', region: 'FR-75', rateBps: 1 },
      { taxClassId: standard, countryCode: 'DE', postalPattern: '10%', rateBps: 1 },
      { countryCode: 'DE', rateBps: 1 },
    ]) {
      const res = await t.request('/api/tax/rates', { apiKey: store.admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const foreign = await freshStore();
    const theirClass = await taxClass(foreign, 500);
    const theirs = await rate(foreign, { taxClassId: theirClass, countryCode: 'DE', rateBps: 700 });
    const refused = await t.request('/api/tax/rates', { apiKey: store.admin, body: { taxClassId: theirClass, countryCode: 'FR', rateBps: 1 } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([{ field: 'taxClassId', message: 'no such tax class in this organization' }]);
    expect((await t.request(`/api/tax/rates/${theirs.id}`, { method: 'PATCH', apiKey: store.admin, body: { rateBps: 1 } })).status).toBe(404);
    expect((await t.request(`/api/tax/rates/${theirs.id}`, { method: 'DELETE', apiKey: store.admin })).status).toBe(404);
    expect((await t.request('/api/tax/rates', { apiKey: store.admin })).body.data.map((r: any) => r.id)).not.toContain(theirs.id);
    const deleted = await t.request(`/api/tax/rates/${theirs.id}`, { method: 'DELETE', apiKey: foreign.admin });
    expect(deleted.status).toBe(200);
    expect((await t.request('/api/tax/rates', { apiKey: foreign.admin })).body.data).toEqual([]);
    expect((await t.request('/api/tax/rates', { apiKey: store.storefront })).status).toBe(403);
  });

  it('checkout taxes each line at the most specific zone rate of its class; no match keeps the class rate', async () => {
    const store = await freshStore();
    const standard = await taxClass(store, 1000);
    const reduced = await taxClass(store, 300, false);
    await rate(store, { taxClassId: standard, countryCode: 'US', rateBps: 500 });
    await rate(store, { taxClassId: standard, countryCode: 'US', region: 'US-CA', rateBps: 725 });
    await rate(store, { taxClassId: standard, countryCode: 'US', region: 'US-CA', postalPattern: '902*', rateBps: 950 });
    await rate(store, { taxClassId: standard, countryCode: 'US', postalPattern: '90210', rateBps: 1025 });
    await rate(store, { taxClassId: reduced, countryCode: 'US', rateBps: 100 });
    const a = await product(store, { price: 10_000 });
    const b = await product(store, { price: 10_000, taxClassId: reduced });
    const cases: Array<[Record<string, unknown>, number, number]> = [
      [{ state: 'IL', postalCode: '62701' }, 500, 100],
      [{ state: 'CA', postalCode: '94105' }, 725, 100],
      [{ state: 'US-CA', postalCode: '90211' }, 950, 100],
      [{ state: 'CA', postalCode: '90210' }, 1025, 100],
      [{ country: 'FR', state: undefined, postalCode: '75001' }, 1000, 300],
    ];
    for (const [address, rateA, rateB] of cases) {
      const order = await orderFor(store, [{ entityId: a }, { entityId: b }], address);
      expect(
        order.lineItems.map((l: any) => l.taxRateBps),
        JSON.stringify(address),
      ).toEqual([rateA, rateB]);
      expect(order.taxTotal).toBe(rateA + rateB);
      expect(order.grandTotal).toBe(20_000 + rateA + rateB);
    }
  });

  it("digital goods are taxed at the store's address", async () => {
    const store = await freshStore();
    const standard = await taxClass(store, 1000);
    await rate(store, { taxClassId: standard, countryCode: 'DE', rateBps: 1900 });
    await rate(store, { taxClassId: standard, countryCode: 'FR', rateBps: 2000 });
    await setSettings(store, 'branding', { address: { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', country: 'DE' } });
    const ebook = await product(store, { price: 1_000, type: 'digitalDownload' });
    const book = await product(store, { price: 1_000 });
    const order = await orderFor(store, [{ entityId: ebook }, { entityId: book }], { country: 'FR', postalCode: '75001', state: undefined });
    expect(order.lineItems.map((l: any) => l.taxRateBps)).toEqual([1900, 2000]);
  });
});

describe('tax-inclusive prices', () => {
  it("extracts the destination's tax from the listed price; every destination pays the same gross", async () => {
    const store = await freshStore();
    const standard = await taxClass(store, 2000);
    await rate(store, { taxClassId: standard, countryCode: 'DE', rateBps: 1900 });
    await rate(store, { taxClassId: standard, countryCode: 'FR', rateBps: 2000 });
    await setSettings(store, 'general', { pricesIncludeTax: true });
    const p = await product(store, { price: 11_900 });
    const q = await product(store, { price: 999 });
    const de = await orderFor(store, [{ entityId: p }, { entityId: q, quantity: 3 }], { country: 'DE', state: undefined, postalCode: '10115' });
    const fr = await orderFor(store, [{ entityId: p }, { entityId: q, quantity: 3 }], { country: 'FR', state: undefined, postalCode: '75001' });
    // 11 900 gross at 19 % holds 1 900 tax; 2 997 at 19 % holds 478.51… → 479 (half to even is moot here).
    expect(de.lineItems.map((l: any) => l.taxTotal)).toEqual([1900, 479]);
    // At 20 %: 11 900 / 6 = 1 983.33 → 1 983; 2 997 / 6 = 499.5 → 500 (half to even: 499.5 → 500).
    expect(fr.lineItems.map((l: any) => l.taxTotal)).toEqual([1983, 500]);
    for (const order of [de, fr]) {
      expect(order.subtotal).toBe(14_897);
      expect(order.grandTotal).toBe(14_897);
      expect(order.taxTotal).toBe(order.lineItems.reduce((s: number, l: any) => s + l.taxTotal, 0));
      expect(order.pricing).toMatchObject({ pricesIncludeTax: true, taxExempt: false, taxExemptionNote: null });
    }
    const html = await t.request(`/api/orders/${fr.id}/invoice.html`, { apiKey: store.admin });
    expect(html.status).toBe(200);
    expect(html.text).toContain('Tax included');
    // The invoice's tax base is net: 14 897 − 2 483.
    expect(html.text).toMatch(/on [^<]*124[.,]14/);
  });

  it('refunds give back what was paid (the tax is inside the price)', async () => {
    // The default organization: payment webhooks are routed to it.
    const store = await openStore(t);
    await taxClass(store, 2000);
    await setSettings(store, 'general', { pricesIncludeTax: true });
    const p = await product(store, { price: 1_200 });
    const order = await orderFor(store, [{ entityId: p, quantity: 2 }], {});
    expect(order).toMatchObject({ subtotal: 2_400, taxTotal: 400, grandTotal: 2_400 });
    await pay(store, order);
    const refund = await t.request(`/api/orders/${order.id}/refunds`, {
      apiKey: store.admin,
      body: { lines: [{ lineItemId: order.lineItems[0].lineItemId, quantity: 1 }], reason: 'returned' },
    });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.body.data.amount).toBe(1_200);
  });
});

describe("exemptions and the customer's own groups", () => {
  it('an exempt group pays no tax and the invoice says "Reverse charge"; groups come from the signed-in customer\'s profile', async () => {
    const store = await freshStore();
    const orgId = store.orgId;
    await taxClass(store, 2000);
    await setSettings(store, 'tax', { exemptCustomerGroupIds: ['b2b-eu'] });
    const p = await product(store, { price: 5_000 });
    await t.request('/api/pricing/prices', { apiKey: store.admin, body: { entityId: p, currency: 'USD', amount: 4_000, customerGroupId: 'b2b-eu' } });

    const buyer = await t.signIn('customer', { organizationId: orgId });
    const grouped = await t.request(`/api/customers/${buyer.userId}`, { method: 'PATCH', apiKey: store.admin, body: { customerGroupIds: ['b2b-eu'] } });
    expect(grouped.status, grouped.text).toBe(200);
    const cart = await t.request('/api/carts', { bearer: buyer.token, body: { currency: 'USD' } });
    expect(cart.status, cart.text).toBe(201);
    const added = await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: buyer.token, body: { entityId: p, quantity: 1 } });
    expect(added.status, added.text).toBe(201);
    // The cart prices the item at the customer's group price too.
    expect(added.body.data.items[0].unitPriceSnapshot).toBe(4_000);
    const res = await t.request('/api/checkout', {
      bearer: buyer.token,
      body: { cartId: cart.body.data.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: ADDRESS },
    });
    expect(res.status, res.text).toBe(201);
    // The group's price and the exemption both applied without the shopper naming a group.
    expect(res.body.data).toMatchObject({ subtotal: 4_000, taxTotal: 0, grandTotal: 4_000, customerGroupIds: ['b2b-eu'] });
    expect(res.body.data.pricing).toMatchObject({ taxExempt: true, taxExemptionNote: 'Reverse charge' });
    const html = await t.request(`/api/orders/${res.body.data.id}/invoice.html`, { apiKey: store.admin });
    expect(html.text).toContain('Reverse charge');

    // A guest (no profile) pays the list price and the tax.
    const guest = await orderFor(store, [{ entityId: p }], {});
    expect(guest).toMatchObject({ subtotal: 5_000, taxTotal: 1_000, grandTotal: 6_000 });
    expect(guest.pricing.taxExempt).toBe(false);
    // A server naming the group gets the exemption too.
    const viaKey = await orderFor(store, [{ entityId: p }], {}, { customerGroupIds: ['b2b-eu'] });
    expect(viaKey).toMatchObject({ taxTotal: 0, grandTotal: 4_000 });
  });
});
