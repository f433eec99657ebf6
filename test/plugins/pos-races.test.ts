// The POS locks under truly parallel requests (issue 22, finding 5): every request on its own
// connection, released together by a barrier (test/support/race.ts), 20 rounds each.
//   - PIN login: 59 wrong PINs and the right one among them. Before, every request passed the
//     lockout check before any failure was counted: 59 failures were recorded against a lockout
//     of 5 and the right PIN got a shift key. Now an attempt is counted before its PIN is
//     verified, so at most `maxFailures` wrong PINs are ever verified in a row.
//   - Manager override: a burst of 40 wrong PINs (21 failures were recorded) — the same rule.
//   - Override single use: one token, two returns at once: one is taken, the other is 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race, type RaceResponse } from '../support/race.js';
import { available, ORDER_TEST_CONFIG, openStore, product, type Store } from '../orders/helpers.js';
import { pos } from '../../plugins/pos/index.js';

const MAX_FAILURES = 5;
const ROUNDS = 20;

let t: TestApp;
let store: Store;
let till: string;

beforeAll(async () => {
  t = await startTestApp({
    ...ORDER_TEST_CONFIG,
    rateLimit: { enabled: false },
    // A wide per-window budget, so the lockout is what stops the guesses here.
    plugins: [pos({ maxFailures: MAX_FAILURES, pinAttempts: { points: 10_000, durationSeconds: 600 } })],
    apiKeyScopes: { till: { prefix: 'cs_till_', description: 'register device', permissions: { pos: ['operate'] } } },
  });
  store = await openStore(t);
  till = await t.apiKey('till');
}, 240_000);
afterAll(() => t?.close());

async function operator(role: string, pin: string) {
  const user = await t.signIn(role);
  const res = await t.request('/api/pos/auth/pin', { method: 'PUT', apiKey: store.admin, body: { operatorId: user.userId, pin } });
  expect(res.status, res.text).toBe(200);
  return user;
}

const wrongPins = (count: number, right: string) => Array.from({ length: count }, (_, i) => String(1000 + i)).filter((p) => p !== right);
const tally = (responses: RaceResponse[]) =>
  responses.reduce<Record<number, number>>((acc, r) => {
    acc[r.status] = (acc[r.status] ?? 0) + 1;
    return acc;
  }, {});
const failuresOf = async (operatorId: string) => (await t.app.db.posPinAttempt.findFirst({ where: { operatorId } })) ?? { failures: 0, lockedAt: null };

/**
 * The lockout's promise for one raced round: at most maxFailures - 1 wrong PINs answered 401 and
 * one lock between successes (a success in the race clears the count once), never more failures
 * recorded than the lockout, and a locked id refuses even the right PIN.
 */
async function checkLockout(operatorId: string, responses: RaceResponse[], retry: () => Promise<number>) {
  const counts = tally(responses);
  const succeeded = (counts[201] ?? 0) > 0;
  expect(counts[201] ?? 0).toBeLessThanOrEqual(1);
  expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(succeeded ? 2 * (MAX_FAILURES - 1) : MAX_FAILURES - 1);
  expect(
    Object.keys(counts).every((s) => ['201', '401', '403', '429'].includes(s)),
    JSON.stringify(counts),
  ).toBe(true);
  const row = await failuresOf(operatorId);
  expect(row.failures).toBeLessThanOrEqual(MAX_FAILURES);
  if (row.lockedAt) expect(await retry()).toBe(403);
  return counts;
}

describe('POS locks under parallel requests', () => {
  it('60 parallel PIN logins, 59 wrong and the right one 20th: at most the lockout is verified, 20 rounds', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const right = '4826';
      const cashier = await operator('staff', right);
      const pins = wrongPins(60, right).slice(0, 59);
      pins.splice(19, 0, right);
      const login = (pin: string) => ({ path: '/api/pos/auth/pin-login', headers: { 'x-api-key': till }, body: { operatorId: cashier.userId, pin, registerId: `race-${round}` } });
      const responses = await race(t.url, pins.map(login));
      const retry = async () => (await t.request('/api/pos/auth/pin-login', { apiKey: till, body: { operatorId: cashier.userId, pin: right, registerId: 'after' } })).status;
      const counts = await checkLockout(cashier.userId, responses, retry);
      // A shift key only ever comes with a 201.
      expect(responses.filter((r) => r.body?.data?.apiKey).length).toBe(counts[201] ?? 0);
      outcomes.push(JSON.stringify(counts));
    }
    console.info(`pin-login race, ${ROUNDS} rounds × 60: ${outcomes.join(' ')}`);
  }, 600_000);

  it('a burst of 40 wrong manager PINs on /auth/override records at most the lockout, 20 rounds', async () => {
    const cashier = await operator('staff', '1357');
    const shift = (await t.request('/api/pos/auth/pin-login', { apiKey: till, body: { operatorId: cashier.userId, pin: '1357', registerId: 'till-1' } })).body.data.apiKey;
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const right = '2468';
      const manager = await operator('admin', right);
      const ask = (pin: string) => ({ path: '/api/pos/auth/override', headers: { 'x-api-key': shift }, body: { managerId: manager.userId, pin, action: 'price_override' } });
      const responses = await race(t.url, wrongPins(40, right).map(ask));
      const retry = async () => (await t.request('/api/pos/auth/override', { apiKey: shift, body: { managerId: manager.userId, pin: right, action: 'price_override' } })).status;
      const counts = await checkLockout(manager.userId, responses, retry);
      expect(counts[201] ?? 0).toBe(0);
      // 40 wrong PINs, nothing in between: the id ends locked.
      expect((await failuresOf(manager.userId)).lockedAt).not.toBeNull();
      outcomes.push(JSON.stringify(counts));
    }
    console.info(`override race, ${ROUNDS} rounds × 40: ${outcomes.join(' ')}`);
  }, 600_000);

  it('one no_receipt_return token, two returns at once: one is taken, the other 409, 20 rounds', async () => {
    const cashier = await operator('staff', '9753');
    const shift = (await t.request('/api/pos/auth/pin-login', { apiKey: till, body: { operatorId: cashier.userId, pin: '9753', registerId: 'till-2' } })).body.data.apiKey;
    const manager = await operator('admin', '8642');
    const scarf = await product(store, { price: 800, stock: 5, title: 'Scarf' });
    const before = await available(store, scarf);
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const granted = await t.request('/api/pos/auth/override', {
        apiKey: shift,
        body: { managerId: manager.userId, pin: '8642', action: 'no_receipt_return', currency: 'USD', amount: 800, lines: [{ entityId: scarf, quantity: 1 }] },
      });
      expect(granted.status, granted.text).toBe(201);
      const ret = (i: number) => ({
        path: '/api/pos/returns',
        headers: { 'x-api-key': shift },
        body: { currency: 'USD', lines: [{ entityId: scarf, quantity: 1 }], overrideToken: granted.body.data.token, idempotencyKey: `race-${round}-${i}` },
      });
      const counts = tally(await race(t.url, [ret(0), ret(1)]));
      expect(counts, JSON.stringify(counts)).toEqual({ 201: 1, 409: 1 });
      outcomes.push(JSON.stringify(counts));
    }
    expect((await available(store, scarf)).onHand).toBe(before.onHand + ROUNDS);
    console.info(`override single use, ${ROUNDS} rounds × 2: ${outcomes.join(' ')}`);
  }, 600_000);
});
