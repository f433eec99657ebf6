// A cart's shipping options are priced as checkout then charges them: the option's amount and tax
// are the order's shipping line, with tax on top (exclusive), extracted from the listed amount
// (general.pricesIncludeTax) and zero for an exempt customer group (tax.exemptCustomerGroupIds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ADDRESS, checkout, guestCart, openStore, ORDER_TEST_CONFIG, product, setSettings, unique, type Store } from '../orders/helpers.js';
import { flat, method, zone } from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
});
afterAll(() => t?.close());

const WHERE = '?country=US&state=IL&postalCode=62701';

/** A store of its own with one taxed delivery method (12.50 at 20 %) and a product. */
async function taxedStore(): Promise<{ store: Store; orgId: string; methodId: string; entityId: string }> {
  const org = await t.app.services.organizations.create({
    slug: unique('shiptax')
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-'),
    name: 'Shipping tax store',
  });
  const store = await openStore(t, { organizationId: org.id });
  const taxClass = await t.request('/api/tax/classes', { apiKey: store.admin, body: { name: 'standard', rateBps: 2000, isDefault: true } });
  expect(taxClass.status, taxClass.text).toBe(201);
  const us = await zone(store);
  const courier = await method(store, us.id, { name: 'Courier', taxClassId: taxClass.body.data.id, calculator: flat(1250) });
  const entityId = await product(store, { price: 3000, stock: 50 });
  return { store, orgId: org.id, methodId: courier.id, entityId };
}

/** The option a guest sees, and the shipping line of the order the guest then places with it. */
async function guestOptionAndLine(store: Store, methodId: string, entityId: string): Promise<{ option: any; line: any; order: any }> {
  const cart = await guestCart(store, [{ entityId, quantity: 1 }]);
  const options = await t.request(`/api/carts/${cart.id}/shipping-options${WHERE}`, { apiKey: store.storefront, headers: cart.headers });
  expect(options.status, options.text).toBe(200);
  const placed = await checkout(store, cart, { body: { shippingMethodId: methodId } });
  expect(placed.status, placed.text).toBe(201);
  return { option: options.body.data.find((o: any) => o.methodId === methodId), line: placed.body.data.shippingLines[0], order: placed.body.data };
}

describe('shipping options in every tax mode', () => {
  it('exclusive: the tax is added on top, as on the order', async () => {
    const { store, methodId, entityId } = await taxedStore();
    const { option, line, order } = await guestOptionAndLine(store, methodId, entityId);
    expect(option).toMatchObject({ amount: 1250, taxRateBps: 2000, taxTotal: 250 });
    expect({ amount: line.amount, taxTotal: line.taxTotal }).toEqual({ amount: option.amount, taxTotal: option.taxTotal });
    expect(order.grandTotal).toBe(3000 + 600 + 1250 + 250);
  });

  it('tax-inclusive: the listed amount holds the tax (extracted half to even), as on the order', async () => {
    const { store, methodId, entityId } = await taxedStore();
    await setSettings(store, 'general', { pricesIncludeTax: true });
    const { option, line, order } = await guestOptionAndLine(store, methodId, entityId);
    // 1 250 × 2 000 / 12 000 = 208.33… → 208; the shopper pays 12.50 for shipping, not 12.50 + tax.
    expect(option).toMatchObject({ amount: 1250, taxRateBps: 2000, taxTotal: 208 });
    expect({ amount: line.amount, taxTotal: line.taxTotal }).toEqual({ amount: option.amount, taxTotal: option.taxTotal });
    expect(order.grandTotal).toBe(3000 + 1250);
  });

  it('an exempt customer group sees no tax on its options, and pays none on the order', async () => {
    const { store, orgId, methodId, entityId } = await taxedStore();
    await setSettings(store, 'tax', { exemptCustomerGroupIds: ['b2b-eu'] });
    const buyer = await t.signIn('customer', { organizationId: orgId });
    const grouped = await t.request(`/api/customers/${buyer.userId}`, { method: 'PATCH', apiKey: store.admin, body: { customerGroupIds: ['b2b-eu'] } });
    expect(grouped.status, grouped.text).toBe(200);
    const cart = await t.request('/api/carts', { bearer: buyer.token, body: { currency: 'USD' } });
    expect(cart.status, cart.text).toBe(201);
    const added = await t.request(`/api/carts/${cart.body.data.id}/items`, { bearer: buyer.token, body: { entityId, quantity: 1 } });
    expect(added.status, added.text).toBe(201);
    const options = await t.request(`/api/carts/${cart.body.data.id}/shipping-options${WHERE}`, { bearer: buyer.token });
    expect(options.status, options.text).toBe(200);
    const option = options.body.data.find((o: any) => o.methodId === methodId);
    expect(option).toMatchObject({ amount: 1250, taxTotal: 0 });
    const placed = await t.request('/api/checkout', {
      bearer: buyer.token,
      body: { cartId: cart.body.data.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: ADDRESS, shippingMethodId: methodId },
    });
    expect(placed.status, placed.text).toBe(201);
    const line = placed.body.data.shippingLines[0];
    expect({ amount: line.amount, taxTotal: line.taxTotal }).toEqual({ amount: option.amount, taxTotal: option.taxTotal });
    expect(placed.body.data).toMatchObject({ taxTotal: 0, grandTotal: 3000 + 1250 });

    // A guest of the same store is not exempt: tax on top.
    const guest = await guestOptionAndLine(store, methodId, entityId);
    expect(guest.option.taxTotal).toBe(250);
    expect(guest.line.taxTotal).toBe(250);
  });
});
