import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { ctxFor, expectGuarded, otherOrganization, unique } from '../inventory/helpers.js';

// Customer ids are UUIDs (the customer's account user id); these need no account to exist.
const CUSTOMER_1 = '00000000-0000-4000-8000-0000000000c1';
const CUSTOMER_2 = '00000000-0000-4000-8000-0000000000c2';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

const code = () =>
  unique('V')
    .replace(/[^A-Za-z0-9_-]/g, '')
    .slice(0, 40);

async function create(body: Record<string, unknown>, apiKey = admin): Promise<any> {
  const res = await t.request('/api/promotions', { apiKey, body: { code: code(), name: 'Promotion', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

const shirt = randomUUID();
const mug = randomUUID();
const cart = (overrides: Record<string, unknown> = {}) => ({
  currency: 'USD',
  subtotal: 10_000,
  lineItems: [
    { entityId: shirt, entityType: 'product', quantity: 3, unitPrice: 2000, totalPrice: 6000 },
    { entityId: mug, entityType: 'homeware', quantity: 2, unitPrice: 1999, totalPrice: 3998 },
  ],
  ...overrides,
});

async function validate(promotionCode: string, overrides: Record<string, unknown> = {}, apiKey = admin): Promise<any> {
  const res = await t.request('/api/promotions/validate', { apiKey, body: { code: promotionCode, ...cart(overrides) } });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

describe('POST /promotions/validate', () => {
  it('gives the discount of each type', async () => {
    const percent = await create({ type: 'percentage_off_order', value: 12.5 });
    expect(await validate(percent.code.toLowerCase())).toMatchObject({
      valid: true,
      reason: null,
      discount: 1250,
      freeShipping: false,
      type: 'percentage_off_order',
      promotionId: percent.id,
    });

    const fixed = await create({ type: 'fixed_amount_off_order', value: 1500, currency: 'USD' });
    expect(await validate(fixed.code)).toMatchObject({ valid: true, discount: 1500 });
    expect(await validate(fixed.code, { subtotal: 900 })).toMatchObject({ valid: true, discount: 900 });

    // 15 % of each homeware line: 15 % of 3998 = 599.7 → 600.
    const item = await create({ type: 'percentage_off_item', value: 15, entityTypes: ['homeware'] });
    expect(await validate(item.code)).toMatchObject({ valid: true, discount: 600, lines: [{ index: 1, entityId: mug, discount: 600 }] });
    const onlyShirt = await create({ type: 'percentage_off_item', value: 10, entityIds: [shirt] });
    expect(await validate(onlyShirt.code)).toMatchObject({ discount: 600, lines: [{ index: 0, discount: 600 }] });
    const nothing = await create({ type: 'percentage_off_item', value: 10, entityIds: [randomUUID()] });
    expect(await validate(nothing.code)).toMatchObject({ valid: false, reason: 'NO_ELIGIBLE_ITEMS', discount: 0 });

    const shipping = await create({ type: 'free_shipping', value: 0 });
    expect(await validate(shipping.code)).toMatchObject({ valid: true, discount: 0, freeShipping: true });

    // Buy 2 get 1 free over 5 units ranked 2000, 2000, 2000, 1999, 1999: one full block, its
    // cheapest unit (a shirt at 2000) is free; the last two units make no full block.
    const b2g1 = await create({ type: 'buy_x_get_y', value: 100, buyQuantity: 2, getQuantity: 1 });
    expect(await validate(b2g1.code)).toMatchObject({ valid: true, discount: 2000, lines: [{ index: 0, discount: 2000 }] });
    // Buy 1 get 1 half price: blocks (2000, 2000) (2000, 1999) (1999): 50 % of 2000 and of 1999 (999.5 → 1000).
    const b1g1 = await create({ type: 'buy_x_get_y', value: 50, buyQuantity: 1, getQuantity: 1 });
    expect(await validate(b1g1.code)).toMatchObject({
      discount: 2000,
      lines: [
        { index: 0, discount: 1000 },
        { index: 1, discount: 1000 },
      ],
    });
    const b5g1 = await create({ type: 'buy_x_get_y', value: 100, buyQuantity: 5, getQuantity: 1 });
    expect(await validate(b5g1.code)).toMatchObject({ valid: false, reason: 'NO_ELIGIBLE_ITEMS' });
  });

  it('says why a code is rejected', async () => {
    expect(await validate('NO-SUCH-CODE')).toMatchObject({ valid: false, reason: 'NOT_FOUND', promotionId: null, discount: 0 });
    const inactive = await create({ type: 'percentage_off_order', value: 10, isActive: false });
    expect((await validate(inactive.code)).reason).toBe('INACTIVE');
    const future = await create({ type: 'percentage_off_order', value: 10, validFrom: '2999-01-01T00:00:00Z' });
    expect((await validate(future.code)).reason).toBe('NOT_STARTED');
    const past = await create({ type: 'percentage_off_order', value: 10, validFrom: '2000-01-01T00:00:00Z', validUntil: '2001-01-01T00:00:00Z' });
    expect((await validate(past.code)).reason).toBe('EXPIRED');
    const euro = await create({ type: 'fixed_amount_off_order', value: 100, currency: 'EUR' });
    expect((await validate(euro.code)).reason).toBe('CURRENCY_MISMATCH');
    const vip = await create({ type: 'percentage_off_order', value: 10, customerGroupIds: ['vip'] });
    expect((await validate(vip.code)).reason).toBe('CUSTOMER_GROUP_NOT_ELIGIBLE');
    expect((await validate(vip.code, { customerGroupIds: ['vip'] })).valid).toBe(true);
    const minimum = await create({ type: 'percentage_off_order', value: 10, minSubtotal: 20_000, currency: 'USD' });
    const short = await validate(minimum.code);
    expect(short).toMatchObject({ valid: false, reason: 'MIN_SUBTOTAL_NOT_MET' });
    expect(short.message).toContain('20000');
    const perCustomer = await create({ type: 'percentage_off_order', value: 10, usageLimitPerCustomer: 1 });
    expect((await validate(perCustomer.code)).reason).toBe('CUSTOMER_REQUIRED');
    expect((await validate(perCustomer.code, { customerId: CUSTOMER_1 })).valid).toBe(true);
  });

  it('reads only: validating never uses the code up', async () => {
    const once = await create({ type: 'percentage_off_order', value: 10, usageLimit: 1 });
    for (let i = 0; i < 3; i += 1) expect((await validate(once.code)).valid).toBe(true);
    const promotion = await t.request(`/api/promotions/${once.id}`, { apiKey: admin });
    expect(promotion.body.data.timesUsed).toBe(0);
  });

  it('refuses a malformed cart with 422', async () => {
    const promotion = await create({ type: 'percentage_off_order', value: 10 });
    const bad: Array<Record<string, unknown>> = [
      { code: promotion.code, currency: 'USD', subtotal: 10.5, lineItems: [] },
      { code: promotion.code, currency: 'dollars', subtotal: 100, lineItems: [] },
      { code: promotion.code, currency: 'USD', subtotal: 100 },
      { code: promotion.code, currency: 'USD', subtotal: 100, lineItems: [{ entityId: 'x', entityType: 'product', quantity: 1, unitPrice: 1, totalPrice: 1 }] },
      { code: promotion.code, currency: 'USD', subtotal: 100, lineItems: [{ entityId: shirt, entityType: 'product', quantity: 0, unitPrice: 1, totalPrice: 1 }] },
      { code: promotion.code, currency: 'USD', subtotal: 100, lineItems: [{ entityId: shirt, entityType: 'product', quantity: 1, unitPrice: 1.5, totalPrice: 1 }] },
      { currency: 'USD', subtotal: 100, lineItems: [] },
    ];
    for (const body of bad) {
      const res = await t.request('/api/promotions/validate', { apiKey: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('is open to whoever builds carts and to promotions readers; 401 anonymous; codes do not cross organizations', async () => {
    const promotion = await create({ type: 'percentage_off_order', value: 10 });
    expect((await t.request('/api/promotions/validate', { body: { code: promotion.code, ...cart() } })).status).toBe(401);
    expect((await t.request('/api/promotions/validate', { body: { nonsense: true } })).status).toBe(401);
    const customer = await t.signIn('customer');
    expect((await t.request('/api/promotions/validate', { bearer: customer.token, body: { code: promotion.code, ...cart() } })).body.data.valid).toBe(true);
    const storefront = await t.apiKey('storefront');
    expect((await t.request('/api/promotions/validate', { apiKey: storefront, body: { code: promotion.code, ...cart() } })).body.data.valid).toBe(true);
    const other = await otherOrganization(t);
    expect(await validate(promotion.code, {}, other.admin)).toMatchObject({ valid: false, reason: 'NOT_FOUND' });
  });

  it('works over GraphQL', async () => {
    const promotion = await create({ type: 'percentage_off_order', value: 10 });
    const res = await t.graphql(
      `query($code: String!, $items: [PromotionLineItemInput!]!) { promotionValidation(code: $code, currency: "USD", subtotal: 5000, lineItems: $items) { valid discount reason } }`,
      { code: promotion.code, items: [] },
      { apiKey: admin },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.promotionValidation).toEqual({ valid: true, discount: 500, reason: null });
  });
});

describe("redemption (the checkout's side)", () => {
  it('holds the usage limit under concurrency: 20 redemptions race for 5 uses, exactly 5 succeed', async () => {
    const promotion = await create({ type: 'percentage_off_order', value: 10, usageLimit: 5 });
    const ctx = await ctxFor(t);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => t.app.services.promotions.redeem(ctx, { code: promotion.code, ...cart(), orderId: `order-${i}` })),
    );
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
    expect(fulfilled).toHaveLength(5);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect((o.reason as any).status, String(o.reason)).toBe(409);
    }
    const after = await t.request(`/api/promotions/${promotion.id}`, { apiKey: admin });
    expect(after.body.data.timesUsed).toBe(5);
    expect(await t.app.db.promotionRedemption.count({ where: { promotionId: promotion.id } })).toBe(5);
    expect((await validate(promotion.code)).reason).toBe('USAGE_LIMIT_REACHED');
  });

  it('holds the per-customer limit under concurrency, and a released use counts no more', async () => {
    const promotion = await create({ type: 'fixed_amount_off_order', value: 500, currency: 'USD', usageLimitPerCustomer: 2 });
    const ctx = await ctxFor(t);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => t.app.services.promotions.redeem(ctx, { code: promotion.code, ...cart({ customerId: CUSTOMER_1 }) })),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled') as Array<PromiseFulfilledResult<any>>;
    expect(won).toHaveLength(2);
    expect(won[0]!.value).toMatchObject({ discount: 500n, valid: true });
    expect((await validate(promotion.code, { customerId: CUSTOMER_1 })).reason).toBe('CUSTOMER_LIMIT_REACHED');
    expect((await validate(promotion.code, { customerId: CUSTOMER_2 })).valid).toBe(true);

    expect(await t.app.services.promotions.release(ctx, won[0]!.value.redemptionId)).toEqual({ released: true });
    expect(await t.app.services.promotions.release(ctx, won[0]!.value.redemptionId)).toEqual({ released: false });
    expect((await validate(promotion.code, { customerId: CUSTOMER_1 })).valid).toBe(true);
  });

  it("commits with the caller's transaction or not at all, and refuses a code that no longer applies", async () => {
    const promotion = await create({ type: 'percentage_off_order', value: 10, usageLimit: 1 });
    const ctx = await ctxFor(t);
    await expect(
      t.app.db.$transaction(async (tx) => {
        await t.app.services.promotions.redeem({ ...ctx, db: tx }, { code: promotion.code, ...cart() });
        throw new Error('order failed');
      }),
    ).rejects.toThrow('order failed');
    expect((await t.request(`/api/promotions/${promotion.id}`, { apiKey: admin })).body.data.timesUsed).toBe(0);
    await t.app.services.promotions.redeem(ctx, { code: promotion.code, ...cart() });
    await expect(t.app.services.promotions.redeem(ctx, { code: promotion.code, ...cart() })).rejects.toMatchObject({ status: 409, details: { reason: 'USAGE_LIMIT_REACHED' } });
    const minimum = await create({ type: 'percentage_off_order', value: 10, minSubtotal: 50_000, currency: 'USD' });
    await expect(t.app.services.promotions.redeem(ctx, { code: minimum.code, ...cart() })).rejects.toMatchObject({
      status: 422,
      details: [{ field: 'code', reason: 'MIN_SUBTOTAL_NOT_MET' }],
    });
    // A usage limit cannot be lowered below the uses already made.
    expect((await t.request(`/api/promotions/${promotion.id}`, { method: 'PATCH', apiKey: admin, body: { usageLimit: 1 } })).status).toBe(200);
    const lowered = await create({ type: 'percentage_off_order', value: 10, usageLimit: 3 });
    await t.app.services.promotions.redeem(ctx, { code: lowered.code, ...cart() });
    await t.app.services.promotions.redeem(ctx, { code: lowered.code, ...cart() });
    expect((await t.request(`/api/promotions/${lowered.id}`, { method: 'PATCH', apiKey: admin, body: { usageLimit: 1 } })).status).toBe(422);
  });
});

describe('access', () => {
  it('validate needs a credential that may build carts or read promotions', async () => {
    const staff = await t.signIn('staff');
    expect((await t.request('/api/promotions/validate', { bearer: staff.token, body: { code: 'X', ...cart() } })).status).toBe(200);
    await expectGuarded(t, '/api/promotions');
  });
});
