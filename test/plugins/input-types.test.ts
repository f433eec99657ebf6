// Plugin list inputs are GraphQL input objects (they were [JSONObject!]), declared with the route
// vocabulary's pluginInput, and keep the REST 422 that names the failing path: a wrong type
// (refused by GraphQL coercion before zod runs) and a missing field (optional in GraphQL,
// required by zod) both answer `details: [{ field: 'lines.0.quantity', … }]`. Over GraphQL a
// wrong type is a GraphQL validation error and a missing field the same VALIDATION_FAILED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInputObjectType } from 'graphql';
import { startTestApp, type TestApp } from '../support/app.js';
import { available, ORDER_TEST_CONFIG, openStore, product, type Store } from '../orders/helpers.js';
import { buildSchema } from '../../src/schema.js';
import { shippedPlugins } from './shipped.js';

let t: TestApp;
let store: Store;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  t = await startTestApp({ ...ORDER_TEST_CONFIG, plugins: shippedPlugins() });
  store = await openStore(t);
}, 120_000);
afterAll(() => t?.close());

function argType(field: string, arg: string): string {
  const found = buildSchema()
    .getMutationType()!
    .getFields()
    [field]?.args.find((a) => a.name === arg);
  if (!found) throw new Error(`Mutation.${field}(${arg}) missing`);
  return String(found.type);
}

function inputFields(name: string): Record<string, string> {
  const type = buildSchema().getType(name);
  if (!isInputObjectType(type)) throw new Error(`${name} is not an input object`);
  return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, String(f.type)]));
}

const openPlan = (body: Record<string, unknown>) =>
  t.request('/api/layaways', { apiKey: store.admin, body: { customerEmail: 'typed@example.com', currency: 'USD', deposit: 1000, expiresAt: inDays(30), ...body } });

const fieldsOf = (res: { body: any }) => (res.body.error?.details ?? []).map((d: { field: string }) => d.field);

describe('typed plugin inputs', () => {
  it('types the seven list arguments as input objects, money as MinorUnits', () => {
    expect(argType('layawayCreate', 'lines')).toBe('[LayawayLineInput!]!');
    expect(argType('layawayCreate', 'installments')).toBe('[LayawayInstallmentInput!]');
    expect(argType('marketplaceReturnCreate', 'lines')).toBe('[MarketplaceReturnLineInput!]!');
    expect(argType('posReturnCreate', 'lines')).toBe('[PosReturnLineInput!]!');
    expect(argType('posOverrideCreate', 'lines')).toBe('[PosReturnLineInput!]');
    expect(argType('posExchangeCreate', 'returnLines')).toBe('[PosExchangeReturnLineInput!]!');
    expect(argType('posExchangeCreate', 'newLines')).toBe('[PosExchangeNewLineInput!]!');
    // Fields optional in GraphQL (zod requires them and names the path), typed to the leaves.
    expect(inputFields('LayawayLineInput')).toEqual({ entityId: 'UUID', variantId: 'UUID', quantity: 'Int' });
    expect(inputFields('LayawayInstallmentInput')).toEqual({ dueAt: 'DateTime', amount: 'MinorUnits' });
    expect(inputFields('PosExchangeNewLineInput')).toEqual({ entityId: 'UUID', variantId: 'UUID', quantity: 'Int', unitPrice: 'MinorUnits' });
    expect(inputFields('PosExchangeReturnLineInput')).toEqual({ lineItemId: 'UUID', quantity: 'Int' });
    expect(inputFields('MarketplaceReturnLineInput')).toEqual({ subOrderLineId: 'UUID', quantity: 'Int' });
    expect(inputFields('PosReturnLineInput')).toEqual({ entityId: 'UUID', variantId: 'UUID', quantity: 'Int' });
  });

  it('types plugin money arguments MinorUnits: 3000000000 reaches the rule, over GraphQL and REST', async () => {
    expect(argType('layawayCreate', 'deposit')).toBe('MinorUnits!');
    expect(argType('layawayPaymentCreate', 'amount')).toBe('MinorUnits!');
    expect(argType('posOverrideCreate', 'amount')).toBe('MinorUnits');
    expect(argType('marketplaceDisputeResolve', 'refundAmount')).toBe('MinorUnits');
    const entityId = await product(store, { price: 10_000, stock: 5 });
    const plan = (await openPlan({ lines: [{ entityId, quantity: 1 }] })).body.data;
    const rest = await t.request(`/api/layaways/${plan.id}/payments`, { apiKey: store.admin, body: { amount: 3_000_000_000, idempotencyKey: 'big' } });
    expect(rest.status, rest.text).toBe(422);
    expect(rest.body.error.details).toEqual([{ field: 'amount', message: 'exceeds the balance of 9000' }]);
    const gql = await t.graphql(
      'mutation($id: UUID!, $a: MinorUnits!) { layawayPaymentCreate(id: $id, amount: $a, idempotencyKey: "big") { balance } }',
      { id: plan.id, a: 3_000_000_000 },
      { apiKey: store.admin },
    );
    expect(gql.body.errors?.[0]?.extensions?.details).toEqual([{ field: 'amount', message: 'exceeds the balance of 9000' }]);
  });

  it('opens a layaway over GraphQL with typed line and installment variables', async () => {
    const entityId = await product(store, { price: 10_000, stock: 5 });
    const res = await t.graphql(
      `mutation($lines: [LayawayLineInput!]!, $installments: [LayawayInstallmentInput!], $expiresAt: DateTime!) {
        layawayCreate(customerEmail: "gql@example.com", currency: "USD", deposit: 2000, expiresAt: $expiresAt, lines: $lines, installments: $installments) {
          status total balance lines { entityId quantity } installments { amount }
        }
      }`,
      { lines: [{ entityId, quantity: 2 }], installments: [{ dueAt: inDays(10), amount: 18_000 }], expiresAt: inDays(30) },
      { apiKey: store.admin },
    );
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.layawayCreate).toEqual({ status: 'active', total: 20_000, balance: 18_000, lines: [{ entityId, quantity: 2 }], installments: [{ amount: 18_000 }] });
    expect(await available(store, entityId)).toMatchObject({ reserved: 2, available: 3 });
  });

  it('over GraphQL: a missing line field is VALIDATION_FAILED naming it, a wrong type a GraphQL validation error', async () => {
    const entityId = await product(store, { price: 10_000, stock: 5 });
    const mutation = `mutation($lines: [LayawayLineInput!]!, $expiresAt: DateTime!) {
      layawayCreate(customerEmail: "gql@example.com", currency: "USD", deposit: 2000, expiresAt: $expiresAt, lines: $lines) { id }
    }`;
    const missing = await t.graphql(mutation, { lines: [{ entityId }], expiresAt: inDays(30) }, { apiKey: store.admin });
    expect(missing.body.errors?.[0]?.extensions?.code, missing.text).toBe('VALIDATION_FAILED');
    expect(missing.body.errors![0].extensions.details.map((d: { field: string }) => d.field)).toEqual(['lines.0.quantity']);
    const wrong = await t.graphql(mutation, { lines: [{ entityId, quantity: 'two' }], expiresAt: inDays(30) }, { apiKey: store.admin });
    // Refused before execution (no data at all), worded by the executor: graphql-js names the
    // path in the message, graphql-jit does not; REST names it in details (below).
    expect(wrong.body.data).toBeUndefined();
    expect(wrong.body.errors?.[0]?.message).toMatch(/Int cannot represent/);
    expect(await available(store, entityId)).toMatchObject({ reserved: 0 });
  });

  it.each([
    ['a wrong type', { lines: [{ quantity: 'two' }] }, 'lines.0.quantity'],
    ['a fraction', { lines: [{ quantity: 1.5 }] }, 'lines.0.quantity'],
    ['a missing field', { lines: [{}] }, 'lines.0.quantity'],
    ['a null for a required field', { lines: [{ quantity: null }] }, 'lines.0.quantity'],
    ['a malformed id', { lines: [{ entityId: 'not-a-uuid', quantity: 1 }] }, 'lines.0.entityId'],
    ['an unknown field', { lines: [{ quantity: 1, colour: 'red' }] }, 'lines.0.colour'],
    ['an item that is no object', { lines: [{ quantity: 1 }, 7] }, 'lines.1'],
    ['a money field of the wrong type', { installments: [{ dueAt: inDays(5), amount: '10 dollars' }] }, 'installments.0.amount'],
    ['a money field above 2^53 − 1', { installments: [{ dueAt: inDays(5), amount: 2 ** 53 }] }, 'installments.0.amount'],
    ['a date that is none', { installments: [{ dueAt: 'soon', amount: 100 }] }, 'installments.0.dueAt'],
  ])('over REST: %s in a layaway list is 422 naming its path', async (_what, patch, field) => {
    const entityId = await product(store, { price: 10_000, stock: 5 });
    const lines = (patch as { lines?: unknown[] }).lines?.map((l) => (l && typeof l === 'object' ? { entityId, ...l } : l)) ?? [{ entityId, quantity: 1 }];
    const res = await openPlan({ ...patch, lines });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(fieldsOf(res)).toContain(field);
    expect(await available(store, entityId)).toMatchObject({ reserved: 0 });
  });

  it('over REST: the other plugins name the path too (returns, overrides, exchanges)', async () => {
    const ret = await t.request('/api/marketplace/returns', {
      apiKey: store.admin,
      body: { subOrderId: '00000000-0000-4000-8000-000000000000', reason: 'broken', lines: [{ subOrderLineId: 'nope', quantity: 1 }] },
    });
    expect(ret.status, ret.text).toBe(422);
    expect(fieldsOf(ret)).toEqual(['lines.0.subOrderLineId']);
    const override = await t.request('/api/pos/auth/override', {
      apiKey: store.admin,
      body: {
        managerId: 'm-1',
        pin: '2468',
        action: 'no_receipt_return',
        currency: 'USD',
        amount: 100,
        lines: [{ entityId: '00000000-0000-4000-8000-000000000000', quantity: '1' }],
      },
    });
    expect(override.status, override.text).toBe(422);
    expect(fieldsOf(override)).toEqual(['lines.0.quantity']);
    const exchange = await t.request('/api/pos/exchanges', {
      apiKey: store.admin,
      body: {
        orderId: 'x',
        idempotencyKey: 'k',
        returnLines: [{ lineItemId: '00000000-0000-4000-8000-000000000000', quantity: 1 }],
        newLines: [{ entityId: '00000000-0000-4000-8000-000000000000', quantity: 1, unitPrice: 1.25 }],
      },
    });
    expect(exchange.status, exchange.text).toBe(422);
    expect(fieldsOf(exchange)).toEqual(['newLines.0.unitPrice']);
  });
});
