// Inputs as precise as outputs: money is the 53-bit MinorUnits scalar (Int is 32-bit), closed
// sets are GraphQL enums, and structured inputs are input objects, over GraphQL and REST alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isEnumType, isInputObjectType, isObjectType } from 'graphql';
import { startTestApp, type TestApp } from '../support/app.js';
import { ADDRESS, ORDER_TEST_CONFIG, guestCart, openStore, product, type Store } from '../orders/helpers.js';
import { buildSchema } from '../../src/schema.js';

const BIG = 3_000_000_000; // above 2^31 − 1: refused by Int
const TOO_BIG = 2 ** 53; // above Number.MAX_SAFE_INTEGER

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
}, 120_000);
afterAll(() => t?.close());

const PRICE_CREATE = `mutation($entityId: UUID!, $amount: MinorUnits!) {
  priceCreate(entityId: $entityId, currency: "USD", amount: $amount) { id amount }
}`;

function argType(field: string, arg: string, root: 'Query' | 'Mutation' = 'Mutation'): string {
  const type = buildSchema().getType(root);
  if (!isObjectType(type)) throw new Error(`${root} missing`);
  const found = type.getFields()[field]?.args.find((a) => a.name === arg);
  if (!found) throw new Error(`${root}.${field}(${arg}) missing`);
  return String(found.type);
}

describe('money inputs are 53-bit MinorUnits', () => {
  it('types every money argument MinorUnits', () => {
    expect(argType('priceCreate', 'amount')).toBe('MinorUnits!');
    expect(argType('priceUpdate', 'amount')).toBe('MinorUnits!');
    expect(argType('promotionValidation', 'subtotal', 'Query')).toBe('MinorUnits!');
    const line = buildSchema().getType('PromotionLineItemInput');
    if (!isInputObjectType(line)) throw new Error('PromotionLineItemInput missing');
    expect(getNamedType(line.getFields().unitPrice!.type).name).toBe('MinorUnits');
  });

  it('accepts 3000000000 over GraphQL and REST', async () => {
    const graphEntity = await product(store, { price: null });
    const res = await t.graphql(PRICE_CREATE, { entityId: graphEntity, amount: BIG }, { apiKey: store.admin });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.priceCreate.amount).toBe(BIG);

    const restEntity = await product(store, { price: null });
    const rest = await t.request('/api/pricing/prices', { apiKey: store.admin, body: { entityId: restEntity, currency: 'USD', amount: BIG } });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.data.amount).toBe(BIG);
    const updated = await t.request(`/api/pricing/prices/${rest.body.data.id}`, { method: 'PATCH', apiKey: store.admin, body: { amount: BIG + 1 } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.amount).toBe(BIG + 1);
  });

  it('refuses more than 2^53 − 1 with 422 VALIDATION_FAILED over both, writing nothing', async () => {
    const entityId = await product(store, { price: null });
    const res = await t.graphql(PRICE_CREATE, { entityId, amount: TOO_BIG }, { apiKey: store.admin });
    expect(res.status).toBe(200);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.extensions.code).toBe('VALIDATION_FAILED');

    const rest = await t.request('/api/pricing/prices', { apiKey: store.admin, body: { entityId, currency: 'USD', amount: TOO_BIG } });
    expect(rest.status, rest.text).toBe(422);
    expect(rest.body.error.code).toBe('VALIDATION_FAILED');
    const prices = await t.request(`/api/pricing/prices?entityId=${entityId}`, { apiKey: store.admin });
    expect(prices.status, prices.text).toBe(200);
    expect(prices.body.data).toEqual([]);
  });
});

describe('enum arguments', () => {
  it('reuses the output enums for closed-set arguments', () => {
    expect(argType('orders', 'status', 'Query')).toBe('OrderStatus');
    expect(argType('orderStatusUpdate', 'status')).toBe('OrderStatus!');
    expect(argType('catalogEntities', 'status', 'Query')).toBe('CatalogEntityStatus');
    expect(argType('inventoryAdjust', 'type')).toBe('InventoryAdjustmentType!');
    expect(argType('inventoryMovements', 'type', 'Query')).toBe('InventoryAdjustmentType');
    expect(argType('promotions', 'status', 'Query')).toBe('PromotionListStatus'); // declared with value descriptions
    expect(isEnumType(getNamedType(buildSchema().getType('PromotionListStatus') ?? undefined))).toBe(true);
  });

  it('filters by an enum over GraphQL and by the same string over REST; a bad value is refused by both', async () => {
    const graph = await t.graphql('{ orders(status: pending) { data { status } } }', undefined, { apiKey: store.admin });
    expect(graph.body.errors).toBeUndefined();
    const bad = await t.graphql('query($s: OrderStatus) { orders(status: $s) { data { id } } }', { s: 'shipped-ish' }, { apiKey: store.admin });
    expect(bad.body.errors?.length).toBeGreaterThan(0);

    const rest = await t.request('/api/orders?status=pending', { apiKey: store.admin });
    expect(rest.status, rest.text).toBe(200);
    const restBad = await t.request('/api/orders?status=shipped-ish', { apiKey: store.admin });
    expect(restBad.status, restBad.text).toBe(422);
    expect(restBad.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('typed input objects', () => {
  it('types addresses, order lines and promotion line items as input objects', () => {
    expect(argType('checkout', 'shippingAddress')).toBe('AddressInput!');
    expect(argType('orderRefundCreate', 'lines')).toBe('[OrderLineQuantityInput!]!');
    expect(argType('orderFulfillmentCreate', 'lines')).toBe('[OrderLineQuantityInput!]');
    expect(argType('promotionValidation', 'lineItems', 'Query')).toBe('[PromotionLineItemInput!]!');
    expect(argType('warehouseCreate', 'address')).toBe('WarehouseAddressInput');
  });

  it('checks out with an AddressInput variable, and a missing field is still 422 naming it', async () => {
    const entityId = await product(store);
    const cart = await guestCart(store, [{ entityId }]);
    const mutation = `mutation($cartId: UUID!, $address: AddressInput!) {
      checkout(cartId: $cartId, currency: "USD", paymentMethodId: "pm_card_visa", email: "a@example.com", shippingAddress: $address) {
        data { shippingAddress { city country } }
      }
    }`;
    const { country: _dropped, ...withoutCountry } = ADDRESS;
    const missing = await t.graphql(mutation, { cartId: cart.id, address: withoutCountry }, { apiKey: store.storefront, headers: cart.headers });
    expect(missing.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(missing.body.errors?.[0]?.extensions.details)).toContain('shippingAddress.country');

    const placed = await t.graphql(mutation, { cartId: cart.id, address: ADDRESS }, { apiKey: store.storefront, headers: cart.headers });
    expect(placed.body.errors).toBeUndefined();
    expect(placed.body.data.checkout.data.shippingAddress).toEqual({ city: 'Springfield', country: 'US' });
  });

  it('refuses an unknown address field over GraphQL and REST alike', async () => {
    const entityId = await product(store);
    const cart = await guestCart(store, [{ entityId }]);
    const rest = await t.request('/api/checkout', {
      apiKey: store.storefront,
      headers: cart.headers,
      body: { cartId: cart.id, paymentMethodId: 'pm_card_visa', currency: 'USD', email: 'a@example.com', shippingAddress: { ...ADDRESS, planet: 'Mars' } },
    });
    expect(rest.status, rest.text).toBe(422);
    expect(rest.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('root fields a caller may be refused are nullable', () => {
  it('gives a storefront key the catalog and an error for orders in one response', async () => {
    const entityId = await product(store, { title: 'Partial Mug' });
    const res = await t.graphql(
      `query($id: String!) { catalogEntity(idOrSlug: $id) { id title } orders(limit: 5) { data { id } } }`,
      { id: entityId },
      { apiKey: store.storefront },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ catalogEntity: { id: entityId, title: 'Partial Mug' }, orders: null });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors?.[0]).toMatchObject({ path: ['orders'], extensions: { code: 'FORBIDDEN' } });
  });

  it('keeps REST statuses and envelopes: 403 for the refused route, 404 for a missing order', async () => {
    const refused = await t.request('/api/orders', { apiKey: store.storefront });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const missing = await t.request('/api/orders/00000000-0000-4000-8000-000000000000', { apiKey: store.admin });
    expect(missing.status, missing.text).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('keeps public root fields non-null', () => {
    const query = buildSchema().getQueryType()!.getFields();
    expect(String(query.orders!.type)).toBe('OrderPage');
    expect(String(buildSchema().getMutationType()!.getFields().checkout!.type)).toBe('CheckoutResult!');
  });
});
