// POST /api/checkout: re-pricing, promotions, tax, shipping, stock, payment, hooks, numbering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { hooks } from '../../src/events/hooks.js';
import { ADDRESS, ORDER_TEST_CONFIG, available, checkout, checkoutBody, events, guestCart, openStore, product, setSettings, unique, type Store } from '../orders/helpers.js';

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, auth: { roles: { viewer: ['catalog:read', 'cart:create', 'cart:read', 'cart:update'] } } });
  store = await openStore(t);
});
afterAll(() => t?.close());

async function taxClass(rateBps: number, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await t.request('/api/tax/classes', { apiKey: store.admin, body: { name: unique('tax').toLowerCase(), rateBps, ...extra } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function promotion(body: Record<string, unknown>): Promise<string> {
  const code = unique('CODE').toUpperCase().replace(/-/g, '');
  const res = await t.request('/api/promotions', { apiKey: store.admin, body: { code, name: 'Promo', validFrom: new Date(Date.now() - 60_000).toISOString(), ...body } });
  expect(res.status, res.text).toBe(201);
  return code;
}

describe('checkout', () => {
  it('a checkout that waits for a change of the cart made on another connection prices the cart as changed, not as read before', async () => {
    const first = await product(store, { price: 1_000, stock: 10 });
    const second = await product(store, { price: 2_500, stock: 10 });
    const cart = await guestCart(store, [{ entityId: first }]);
    // Another connection holds the cart's lock; checkout's first statement (which reads the
    // items with the lock) waits, and meanwhile the cart gets a second item and a new quantity.
    let pending: Promise<{ status: number; text: string; body: any }> | undefined;
    await t.app.db.$transaction(async (tx) => {
      await tx.$queryRaw`select 1 from carts where id = ${cart.id}::uuid for update`;
      pending = checkout(store, cart);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.$executeRaw`update cart_items set quantity = 2 where cart_id = ${cart.id}::uuid`;
      await tx.$executeRaw`insert into cart_items (id, organization_id, cart_id, entity_id, quantity, unit_price_snapshot, updated_at)
        select gen_random_uuid(), organization_id, id, ${second}::uuid, 1, 1, now() from carts where id = ${cart.id}::uuid`;
      await tx.$executeRaw`update carts set updated_at = now() where id = ${cart.id}::uuid`;
    });
    const res = await pending!;
    expect(res.status, res.text).toBe(201);
    const lines = res.body.data.lineItems.map((l: { entityId: string; quantity: number; unitPrice: number }) => [l.entityId, l.quantity, l.unitPrice]);
    expect(lines).toEqual([
      [first, 2, 1_000],
      [second, 1, 2_500],
    ]);
    expect(res.body.data.subtotal).toBe(4_500);
  });

  it('turns a cart into an order: re-priced lines, promotion, tax per line, shipping, totals', async () => {
    await setSettings(store, 'shipping', { flatRate: 500, freeOver: 100_000 });
    const standard = await taxClass(2000);
    const a = await product(store, { price: 1000, stock: 10, taxClassId: standard, title: 'Alpha' });
    const b = await product(store, { price: 550, stock: 10, title: 'Beta' });
    const code = await promotion({ type: 'percentage_off_order', value: 10 });
    const cart = await guestCart(store, [
      { entityId: a, quantity: 2 },
      { entityId: b, quantity: 1 },
    ]);

    const res = await checkout(store, cart, { body: { promotionCodes: [code] } });
    expect(res.status, res.text).toBe(201);
    const order = res.body.data;
    expect(res.body.meta).toEqual({ hookErrors: [], replayed: false });
    expect(order.number).toMatch(/^ORD-\d{4}-\d{6}$/);
    expect(order).toMatchObject({
      status: 'pending',
      paymentStatus: 'awaiting_payment',
      currency: 'USD',
      subtotal: 2550,
      discountTotal: 255,
      taxTotal: 360,
      shippingTotal: 500,
      grandTotal: 2550 - 255 + 360 + 500,
      customerEmail: 'buyer@example.com',
      promotionCodes: [code],
      shippingAddress: ADDRESS,
    });
    expect(order.lineItems).toHaveLength(2);
    expect(order.lineItems[0]).toMatchObject({
      entityId: a,
      entityType: 'product',
      title: 'Alpha',
      quantity: 2,
      refundedQuantity: 0,
      unitPrice: 1000,
      totalPrice: 2000,
      discountTotal: 200,
      taxRateBps: 2000,
      taxTotal: 360,
      fulfillmentStatus: 'unfulfilled',
    });
    expect(order.lineItems[1]).toMatchObject({ entityId: b, title: 'Beta', quantity: 1, unitPrice: 550, totalPrice: 550, discountTotal: 55, taxRateBps: 0, taxTotal: 0 });
    expect(order.lineItems[0].lineItemId).toMatch(/^[0-9a-f-]{36}$/);
    expect(order.lineItems[0].sku).toBeTruthy();

    expect(await available(store, a)).toMatchObject({ onHand: 10, reserved: 2, available: 8 });
    const created = (await events(t, 'orders.create')).filter((e) => e.payload.order.id === order.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.payload.order.grandTotal).toBe(order.grandTotal);
    expect((await t.request(`/api/carts/${cart.id}`, { headers: cart.headers })).body.data.status).toBe('converted');
    await setSettings(store, 'shipping', { flatRate: null, freeOver: null });
  });

  it('re-prices every line at checkout and never trusts the snapshot', async () => {
    const p = await product(store, { price: 1000, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p }]);
    const prices = await t.request(`/api/pricing/prices?entityId=${p}&currency=USD`, { apiKey: store.admin });
    const priceId = prices.body.data[0].id;
    expect((await t.request(`/api/pricing/prices/${priceId}`, { method: 'PATCH', apiKey: store.admin, body: { amount: 1234 } })).status).toBe(200);
    const res = await checkout(store, cart);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.lineItems[0].unitPrice).toBe(1234);
    expect(res.body.data.subtotal).toBe(1234);
  });

  it('fails with 422 CHECKOUT_FAILED and keeps nothing when the card is declined', async () => {
    const p = await product(store, { price: 800, stock: 3 });
    const code = await promotion({ type: 'fixed_amount_off_order', value: 100, currency: 'USD', usageLimit: 1 });
    const cart = await guestCart(store, [{ entityId: p, quantity: 2 }]);
    const res = await checkout(store, cart, { paymentMethodId: 'pm_card_chargeDeclined', body: { promotionCodes: [code] } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CHECKOUT_FAILED');
    expect(res.body.error.message).toContain('Your card was declined.');
    expect(res.body.error.details).toMatchObject({ reason: 'Your card was declined.', step: 'payment', paymentCode: 'card_declined', declineCode: 'generic_decline' });
    expect(await available(store, p)).toMatchObject({ reserved: 0, available: 3 });
    expect((await t.request(`/api/carts/${cart.id}`, { headers: cart.headers })).body.data.status).toBe('open');
    expect(await t.app.db.order.count({ where: { cartId: cart.id } })).toBe(0);

    // The same cart goes through with a good card, and the single-use code is still there to use.
    const ok = await checkout(store, cart, { body: { promotionCodes: [code] } });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.discountTotal).toBe(100);
  });

  it.each([
    ['pm_card_chargeDeclinedInsufficientFunds', 'Your card has insufficient funds.'],
    ['pm_card_chargeDeclinedExpiredCard', 'Your card has expired.'],
    ['pm_card_does_not_exist', "No such PaymentMethod: 'pm_card_does_not_exist'"],
  ])('explains a failed payment with %s', async (paymentMethodId, reason) => {
    const p = await product(store, { price: 100, stock: 1 });
    const res = await checkout(store, await guestCart(store, [{ entityId: p }]), { paymentMethodId });
    expect(res.status).toBe(422);
    expect(res.body.error.details.reason).toBe(reason);
  });

  it('fails with CHECKOUT_FAILED for missing stock, an empty cart, another currency, an item no longer sold or priced', async () => {
    const scarce = await product(store, { price: 100, stock: 1 });
    const tooMany = await checkout(store, await guestCart(store, [{ entityId: scarce, quantity: 2 }]));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.code).toBe('CHECKOUT_FAILED');
    expect(tooMany.body.error.details.step).toBe('inventory');

    const empty = await checkout(store, await guestCart(store));
    expect(empty.status).toBe(422);
    expect(empty.body.error.details.reason).toMatch(/empty/);

    const p = await product(store, { price: 100, stock: 5 });
    const euros = await checkout(store, await guestCart(store, [{ entityId: p }]), { body: { currency: 'EUR' } });
    expect(euros.status).toBe(422);
    expect(euros.body.error.code).toBe('CHECKOUT_FAILED');

    const archived = await product(store, { price: 100, stock: 5 });
    const cart = await guestCart(store, [{ entityId: archived }]);
    expect((await t.request(`/api/catalog/entities/${archived}/archive`, { method: 'POST', apiKey: store.admin })).status).toBe(200);
    const notSold = await checkout(store, cart);
    expect(notSold.status).toBe(422);
    expect(notSold.body.error.details.reason).toMatch(/archived/);

    const unpriced = await product(store, { price: null, stock: 5 });
    const noPrice = await checkout(store, await guestCart(store, [{ entityId: unpriced }]));
    expect(noPrice.status).toBe(422);
    expect(noPrice.body.error.details.reason).toMatch(/no price/);
  });

  it('refuses a promotion code the promotions module rejects, with its reason', async () => {
    const p = await product(store, { price: 100, stock: 5 });
    const res = await checkout(store, await guestCart(store, [{ entityId: p }]), { body: { promotionCodes: ['NOSUCHCODE'] } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CHECKOUT_FAILED');
    expect(res.body.error.details.step).toBe('promotions');
    expect(await available(store, p)).toMatchObject({ reserved: 0 });
  });

  it('validates the body: 422 VALIDATION_FAILED naming the field', async () => {
    const p = await product(store, { price: 100, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p }]);
    const noAddress = await t.request('/api/checkout', { apiKey: store.storefront, headers: cart.headers, body: { ...checkoutBody(cart), shippingAddress: undefined } });
    expect(noAddress.status).toBe(422);
    expect(noAddress.body.error.code).toBe('VALIDATION_FAILED');
    const badCountry = await t.request('/api/checkout', {
      apiKey: store.storefront,
      headers: cart.headers,
      body: checkoutBody(cart, { shippingAddress: { ...ADDRESS, country: 'USA' } }),
    });
    expect(badCountry.status).toBe(422);
    expect(JSON.stringify(badCountry.body.error.details)).toContain('shippingAddress.country');
  });

  it('lets checkout.beforeCreate hooks veto, and reports orders.afterCreate failures in meta.hookErrors', async () => {
    const p = await product(store, { price: 100, stock: 5 });
    const offVeto = hooks.on(
      'checkout.beforeCreate',
      (payload) => {
        if (payload.totals.grandTotal > 0 && payload.lines.some((l) => l.entityId === p && l.quantity > 3)) throw new Error('at most 3 per order');
      },
      { name: 'quantityLimit' },
    );
    const offAfter = hooks.on(
      'orders.afterCreate',
      () => {
        throw Object.assign(new Error('CRM is down'), { code: 'CRM_DOWN' });
      },
      { name: 'crmSync' },
    );
    try {
      const vetoed = await checkout(store, await guestCart(store, [{ entityId: p, quantity: 4 }]));
      expect(vetoed.status).toBe(422);
      expect(vetoed.body.error.code).toBe('CHECKOUT_FAILED');
      expect(vetoed.body.error.details).toMatchObject({ reason: 'at most 3 per order', step: 'checkout.beforeCreate' });
      expect(await available(store, p)).toMatchObject({ reserved: 0 });

      const ok = await checkout(store, await guestCart(store, [{ entityId: p, quantity: 1 }]));
      expect(ok.status).toBe(201);
      expect(ok.body.meta.hookErrors).toEqual([{ key: 'orders.afterCreate', hook: 'crmSync', message: 'CRM is down', code: 'CRM_DOWN' }]);
    } finally {
      offVeto();
      offAfter();
    }
  });
});

describe('who checks out', () => {
  it('an anonymous shopper checks out a guest cart with its token, not without', async () => {
    const p = await product(store, { price: 300, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p }], undefined);
    const noToken = await t.request('/api/checkout', { body: checkoutBody(cart) });
    expect(noToken.status).toBe(404);
    const res = await t.request('/api/checkout', { headers: cart.headers, body: checkoutBody(cart) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.customerId).toBeNull();
  });

  it('a customer checks out their own cart; the order carries their id and account email', async () => {
    const p = await product(store, { price: 300, stock: 5 });
    const alice = await t.signIn('customer');
    const cart = await t.request('/api/carts', { bearer: alice.token, body: { currency: 'USD' } });
    const id = cart.body.data.id;
    await t.request(`/api/carts/${id}/items`, { bearer: alice.token, body: { entityId: p, quantity: 1 } });
    const bob = await t.signIn('customer');
    expect((await t.request('/api/checkout', { bearer: bob.token, body: checkoutBody({ id }) })).status).toBe(404);
    expect((await t.request('/api/checkout', { bearer: alice.token, body: checkoutBody({ id }, { customerId: bob.userId }) })).status).toBe(403);
    const res = await t.request('/api/checkout', { bearer: alice.token, body: checkoutBody({ id }, { email: 'ignored@example.com' }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ customerId: alice.userId, customerEmail: alice.email });
  });

  it('takes customerGroupIds from servers and staff only, and prices the group', async () => {
    const p = await product(store, { price: 1000, stock: 5 });
    const group = 'wholesale';
    const price = await t.request('/api/pricing/prices', { apiKey: store.admin, body: { entityId: p, currency: 'USD', amount: 800, customerGroupId: group } });
    expect(price.status, price.text).toBe(201);
    const shopper = await guestCart(store, [{ entityId: p }], undefined);
    const refused = await t.request('/api/checkout', { headers: shopper.headers, body: checkoutBody(shopper, { customerGroupIds: [group] }) });
    expect(refused.status).toBe(403);
    const res = await checkout(store, await guestCart(store, [{ entityId: p }]), { body: { customerGroupIds: [group] } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.lineItems[0].unitPrice).toBe(800);
    expect(res.body.data.customerGroupIds).toEqual([group]);
  });

  it('needs orders:create from signed-in callers', async () => {
    const p = await product(store, { price: 300, stock: 5 });
    const readOnly = await t.signIn('viewer');
    const cart = await guestCart(store, [{ entityId: p }]);
    const res = await t.request('/api/checkout', { bearer: readOnly.token, headers: cart.headers, body: checkoutBody(cart) });
    expect(res.status).toBe(403);
  });
});

describe('idempotency', () => {
  it('replays the original order for the same key and caller, with 200 and no second charge', async () => {
    const p = await product(store, { price: 700, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p }]);
    const key = `idem-${unique()}`;
    const first = await checkout(store, cart, { body: { idempotencyKey: key } });
    expect(first.status).toBe(201);
    const again = await checkout(store, cart, { body: { idempotencyKey: key } });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.number).toBe(first.body.data.number);
    expect(again.body.meta.replayed).toBe(true);
    expect(await t.app.db.order.count({ where: { cartId: cart.id } })).toBe(1);
    expect(await available(store, p)).toMatchObject({ reserved: 1 });
    const charges = (t.app.services.payments.provider as unknown as { log: Array<{ kind: string; input: { orderId?: string } }> }).log.filter(
      (c) => c.kind === 'authorize' && c.input.orderId === first.body.data.id,
    );
    expect(charges).toHaveLength(1);
  });

  it('binds the key to the caller: another caller with the same key does not get the order', async () => {
    const p = await product(store, { price: 700, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p }]);
    const key = `idem-${unique()}`;
    const first = await checkout(store, cart, { body: { idempotencyKey: key } });
    expect(first.status).toBe(201);
    const other = await checkout(store, cart, { apiKey: store.admin, body: { idempotencyKey: key } });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('CHECKOUT_FAILED');
    expect(JSON.stringify(other.body)).not.toContain(first.body.data.id);
  });

  it('concurrent checkouts with one key make one order, and every answer is that order', async () => {
    const p = await product(store, { price: 700, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p }]);
    const key = `idem-${unique()}`;
    const results = await Promise.all(Array.from({ length: 6 }, () => checkout(store, cart, { body: { idempotencyKey: key } })));
    expect(
      results.every((r) => r.status === 201 || r.status === 200),
      results.map((r) => r.text).join('\n'),
    ).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await t.app.db.order.count({ where: { cartId: cart.id } })).toBe(1);
  });

  it('a key used for another cart is 422 IDEMPOTENCY_KEY_REUSED (another request)', async () => {
    const p = await product(store, { price: 700, stock: 5 });
    const key = `idem-${unique()}`;
    expect((await checkout(store, await guestCart(store, [{ entityId: p }]), { body: { idempotencyKey: key } })).status).toBe(201);
    const res = await checkout(store, await guestCart(store, [{ entityId: p }]), { body: { idempotencyKey: key } });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', details: { idempotencyKey: key, orderId: expect.any(String) } });
  });
});

describe('concurrency', () => {
  it('30 concurrent checkouts of single-unit carts against 5 units give exactly 5 orders and no 5xx', async () => {
    const p = await product(store, { price: 999, stock: 5 });
    const carts = await Promise.all(Array.from({ length: 30 }, () => guestCart(store, [{ entityId: p }])));
    const results = await Promise.all(carts.map((cart) => checkout(store, cart)));
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s >= 500),
      results
        .filter((r) => r.status >= 500)
        .map((r) => r.text)
        .join('\n'),
    ).toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 422)).toHaveLength(25);
    for (const r of results.filter((r) => r.status === 422)) expect(r.body.error.code).toBe('CHECKOUT_FAILED');
    expect(await available(store, p)).toMatchObject({ onHand: 5, reserved: 5, available: 0 });
    expect(await t.app.db.order.count({ where: { lines: { some: { entityId: p } } } })).toBe(5);

    // Order numbers are sequential with no gaps, whatever failed in between.
    const numbers = results
      .filter((r) => r.status === 201)
      .map((r) => Number(r.body.data.number.slice(-6)))
      .sort((a, b) => a - b);
    for (let i = 1; i < numbers.length; i += 1) expect(numbers[i]).toBe(numbers[i - 1]! + 1);
  });

  it('numbers orders ORD-<year>-NNNNNN per organization, starting at 000001', async () => {
    const org = await t.app.services.organizations.create({ slug: `numbers-${Date.now()}`, name: 'Numbers' });
    const other = await openStore(t, { organizationId: org.id });
    const p = await product(other, { price: 100, stock: 5 });
    const first = await checkout(other, await guestCart(other, [{ entityId: p }]));
    const second = await checkout(other, await guestCart(other, [{ entityId: p }]));
    const year = new Date().getUTCFullYear();
    expect(first.body.data.number).toBe(`ORD-${year}-000001`);
    expect(second.body.data.number).toBe(`ORD-${year}-000002`);
  });
});

describe('GraphQL', () => {
  it('checks out through the checkout mutation with the same pipeline', async () => {
    const p = await product(store, { price: 450, stock: 5 });
    const cart = await guestCart(store, [{ entityId: p, quantity: 2 }]);
    const res = await t.graphql(
      `mutation($cart: UUID!, $address: AddressInput!) {
        checkout(cartId: $cart, paymentMethodId: "pm_card_visa", currency: "USD", shippingAddress: $address) {
          data { number status grandTotal lineItems { quantity unitPrice } }
          meta { hookErrors { message } replayed }
        }
      }`,
      { cart: cart.id, address: ADDRESS },
      { apiKey: store.storefront, headers: cart.headers },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.checkout.data).toMatchObject({ status: 'pending', grandTotal: 900, lineItems: [{ quantity: 2, unitPrice: 450 }] });
    expect(res.body.data.checkout.meta).toEqual({ hookErrors: [], replayed: false });
  });
});
