// Property test (fast-check) of checkout's money over random carts, zone rates, inclusive and
// exclusive prices, discounts, shipping charges and exemptions:
//   grandTotal = Σ lines − discounts + shipping (+ tax only when prices exclude it),
//   every amount an integer, the parts add up to the totals to the minor unit, and per line
//   tax extraction and addition round-trip within one minor unit.
// Many runs at the pure totals level; a few through HTTP checkout on real PostgreSQL.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeTotals, taxIncluded, type TotalsInput } from '../../src/modules/checkout/totals.js';
import { taxOn } from '../../src/modules/orders/money.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { ADDRESS, ORDER_TEST_CONFIG, checkout, guestCart, openStore, product, setSettings } from '../orders/helpers.js';
import { otherOrganization, unique } from '../inventory/helpers.js';

/** Zone rates a store might have: 0 %, US sales taxes, EU VATs, and 100 % as the edge. */
const rateBps = fc.oneof(fc.constantFrom(0, 500, 725, 950, 1900, 2000, 2100, 2500), fc.integer({ min: 0, max: 10_000 }));

const totalsInput: fc.Arbitrary<TotalsInput> = fc
  .record({
    lines: fc.array(fc.record({ unitPrice: fc.integer({ min: 0, max: 2_000_000 }), quantity: fc.integer({ min: 1, max: 50 }), rateBps }), { minLength: 0, maxLength: 12 }),
    discountShare: fc.double({ min: 0, max: 1.2, noNaN: true }),
    lineDiscounts: fc.array(fc.record({ index: fc.integer({ min: 0, max: 11 }), amount: fc.integer({ min: 0, max: 500_000 }) }), { maxLength: 4 }),
    freeShipping: fc.boolean(),
    flatRate: fc.integer({ min: 0, max: 5_000 }),
    freeOver: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
    shippingCharges: fc.option(fc.array(fc.record({ amount: fc.integer({ min: 0, max: 50_000 }), rateBps }), { maxLength: 3 }), { nil: undefined }),
    pricesIncludeTax: fc.boolean(),
    taxExempt: fc.boolean(),
  })
  .map((r) => {
    const subtotal = r.lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0);
    return {
      lines: r.lines,
      discountTotal: Math.floor(subtotal * r.discountShare),
      lineDiscounts: r.lineDiscounts,
      freeShipping: r.freeShipping,
      shipping: { flatRate: r.flatRate, freeOver: r.freeOver },
      shippingCharges: r.shippingCharges,
      pricesIncludeTax: r.pricesIncludeTax,
      taxExempt: r.taxExempt,
    };
  });

/** Tax computed one way and recomputed the other way lands within one minor unit. */
function roundTrips(amount: number, tax: number, rate: number, inclusive: boolean): boolean {
  if (inclusive) return Math.abs(taxOn(amount - tax, rate) - tax) <= 1;
  return Math.abs(taxIncluded(amount + tax, rate) - tax) <= 1;
}

describe('checkout totals (pure), property', () => {
  it('reconcile to the minor unit in both tax modes, with and without exemptions', () => {
    fc.assert(
      fc.property(totalsInput, (input) => {
        const out = computeTotals(input);
        const amounts = [
          out.subtotal,
          out.discountTotal,
          out.taxTotal,
          out.shippingTotal,
          out.shippingTaxTotal,
          out.grandTotal,
          ...out.lines.flatMap((l) => [l.totalPrice, l.discountTotal, l.taxTotal]),
          ...out.shippingLines.flatMap((s) => [s.amount, s.taxTotal]),
        ];
        expect(amounts.every((a) => Number.isSafeInteger(a) && a >= 0)).toBe(true);
        expect(out.subtotal).toBe(out.lines.reduce((s, l) => s + l.totalPrice, 0));
        expect(out.discountTotal).toBe(out.lines.reduce((s, l) => s + l.discountTotal, 0));
        expect(out.taxTotal).toBe(out.lines.reduce((s, l) => s + l.taxTotal, 0) + out.shippingTaxTotal);
        expect(out.grandTotal).toBe(out.subtotal - out.discountTotal + out.shippingTotal + (input.pricesIncludeTax ? 0 : out.taxTotal));
        if (input.taxExempt) expect(out.taxTotal).toBe(0);
        if (input.shippingCharges) expect(out.shippingTotal).toBe(out.shippingLines.reduce((s, l) => s + l.amount, 0));
        out.lines.forEach((line, i) => {
          expect(line.discountTotal).toBeLessThanOrEqual(line.totalPrice);
          if (!input.taxExempt) expect(roundTrips(line.totalPrice - line.discountTotal, line.taxTotal, input.lines[i]!.rateBps, input.pricesIncludeTax === true)).toBe(true);
        });
        out.shippingLines.forEach((s, i) => {
          if (!input.taxExempt) expect(roundTrips(s.amount, s.taxTotal, input.shippingCharges![i]!.rateBps, input.pricesIncludeTax === true)).toBe(true);
        });
        // Inclusive mode: the tax is part of what is paid, never more than it.
        if (input.pricesIncludeTax) expect(out.taxTotal).toBeLessThanOrEqual(out.subtotal - out.discountTotal + out.shippingTotal);
      }),
      { numRuns: 5_000 },
    );
  });

  it('extracts half to even: exact halves go to the even minor unit', () => {
    // 2 997 at 20 %: 499.5 → 500; 2 985 at 20 %: 497.5 → 498; 15 at 50 %: 5 exactly; 3 at 50 %: 1.
    expect([taxIncluded(2_997, 2000), taxIncluded(2_985, 2000), taxIncluded(15, 5000), taxIncluded(3, 5000), taxIncluded(9, 5000)]).toEqual([500, 498, 5, 1, 3]);
  });
});

describe('checkout over HTTP, property', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(ORDER_TEST_CONFIG);
  });
  afterAll(() => t?.close());

  it('orders reconcile for random carts, destinations, modes and exemptions', async () => {
    const countries = ['DE', 'FR', 'US', 'JP'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          prices: fc.array(fc.record({ price: fc.integer({ min: 1, max: 99_999 }), quantity: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 4 }),
          zoneRates: fc.record({ DE: rateBps, FR: rateBps, US: rateBps }),
          classRate: rateBps,
          country: fc.constantFrom(...countries),
          pricesIncludeTax: fc.boolean(),
          exempt: fc.boolean(),
        }),
        async (c) => {
          const org = await otherOrganization(t);
          const store = await openStore(t, { organizationId: org.id });
          const cls = await t.request('/api/tax/classes', { apiKey: store.admin, body: { name: 'standard', rateBps: c.classRate, isDefault: true } });
          expect(cls.status, cls.text).toBe(201);
          for (const [countryCode, bps] of Object.entries(c.zoneRates)) {
            const r = await t.request('/api/tax/rates', { apiKey: store.admin, body: { taxClassId: cls.body.data.id, countryCode, rateBps: bps } });
            expect(r.status, r.text).toBe(201);
          }
          await setSettings(store, 'general', { pricesIncludeTax: c.pricesIncludeTax });
          await setSettings(store, 'tax', { exemptCustomerGroupIds: ['exempt'] });
          const ids = await Promise.all(c.prices.map((p) => product(store, { price: p.price, stock: 10 })));
          const cart = await guestCart(
            store,
            ids.map((entityId, i) => ({ entityId, quantity: c.prices[i]!.quantity })),
          );
          const res = await checkout(store, cart, {
            body: {
              shippingAddress: { ...ADDRESS, country: c.country, state: c.country === 'US' ? 'IL' : undefined },
              ...(c.exempt ? { customerGroupIds: ['exempt'] } : {}),
              idempotencyKey: unique('k'),
            },
          });
          expect(res.status, res.text).toBe(201);
          const order = res.body.data;
          const expectedRate = c.country === 'JP' ? c.classRate : c.zoneRates[c.country];
          for (const line of order.lineItems) {
            expect(line.taxRateBps).toBe(expectedRate);
            const net = line.totalPrice - line.discountTotal;
            expect(line.taxTotal).toBe(c.exempt ? 0 : c.pricesIncludeTax ? taxIncluded(net, expectedRate) : taxOn(net, expectedRate));
            if (!c.exempt) expect(roundTrips(net, line.taxTotal, expectedRate, c.pricesIncludeTax)).toBe(true);
          }
          expect(order.subtotal).toBe(c.prices.reduce((s, p) => s + p.price * p.quantity, 0));
          expect(order.taxTotal).toBe(order.lineItems.reduce((s: number, l: any) => s + l.taxTotal, 0));
          expect(order.grandTotal).toBe(order.subtotal - order.discountTotal + order.shippingTotal + (c.pricesIncludeTax ? 0 : order.taxTotal));
          expect(order.pricing).toMatchObject({ pricesIncludeTax: c.pricesIncludeTax, taxExempt: c.exempt });
        },
      ),
      { numRuns: 8 },
    );
  }, 240_000);
});
