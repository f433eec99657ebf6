// Gift cards over REST and GraphQL: issue (code once, masked later), list, get with ledger,
// disable, adjust, the shopper's lookup and its guess budget, organization scoping, and a race of
// two debits for the last balance on separate connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { race } from '../support/race.js';
import { auditOf, eventsWhere, expectGuarded, otherOrganization } from '../inventory/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

async function issue(body: Record<string, unknown> = {}, apiKey = admin): Promise<any> {
  const res = await t.request('/api/gift-cards', { apiKey, body: { initialBalance: 5000, currency: 'USD', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

describe('issue, get, list, disable', () => {
  it('issues a card with a 16-character code shown once, stored hashed, with an issue entry', async () => {
    const card = await issue({ recipientEmail: 'ann@example.com', recipientName: 'Ann', note: 'birthday', expiresAt: '2999-01-01T00:00:00Z' });
    expect(card.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(card).toMatchObject({
      balance: 5000,
      initialBalance: 5000,
      currency: 'USD',
      state: 'active',
      last4: card.code.slice(-4),
      maskedCode: `****-****-****-${card.code.slice(-4)}`,
    });
    const row = await t.app.db.giftCard.findUniqueOrThrow({ where: { id: card.id } });
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))).not.toContain(card.code.replace(/-/g, ''));

    const got = await t.request(`/api/gift-cards/${card.id}`, { apiKey: admin });
    expect(got.status, got.text).toBe(200);
    expect(got.body.data.code).toBeUndefined();
    expect(got.body.data.entries).toMatchObject([{ kind: 'issue', amount: 5000, balanceAfter: 5000 }]);
    const [event] = await eventsWhere(t, 'giftcards.issue', (p) => p.giftCard.id === card.id);
    expect(JSON.stringify(event)).not.toContain(card.code);
    const [entry] = await auditOf(t, admin, 'gift_card', card.id);
    expect(entry.event).toBe('giftcards.issue');
    expect(JSON.stringify(entry)).not.toContain(card.code);
  });

  it('refuses bad input with 422', async () => {
    for (const body of [
      { initialBalance: 0 },
      { initialBalance: -5 },
      { initialBalance: 10.5 },
      { currency: 'usd1' },
      { expiresAt: '2000-01-01T00:00:00Z' },
      { recipientEmail: 'nope' },
    ]) {
      const res = await t.request('/api/gift-cards', { apiKey: admin, body: { initialBalance: 100, currency: 'USD', ...body } });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('lists newest first with filters and cursors', async () => {
    const email = `list-${Date.now()}@example.com`;
    const a = await issue({ recipientEmail: email, currency: 'EUR' });
    const b = await issue({ recipientEmail: email, currency: 'EUR' });
    const page = await t.request(`/api/gift-cards?recipientEmail=${email}&limit=1`, { apiKey: admin });
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.map((c: any) => c.id)).toEqual([b.id]);
    expect(page.body.data[0].code).toBeUndefined();
    expect(page.body.meta.pagination).toMatchObject({ total: 2, hasNextPage: true });
    const next = await t.request(`/api/gift-cards?recipientEmail=${email}&first=1&after=${page.body.meta.pagination.endCursor}`, { apiKey: admin });
    expect(next.body.data.map((c: any) => c.id)).toEqual([a.id]);
    await t.request(`/api/gift-cards/${a.id}/disable`, { apiKey: admin, body: {} });
    const disabled = await t.request(`/api/gift-cards?recipientEmail=${email}&state=disabled`, { apiKey: admin });
    expect(disabled.body.data.map((c: any) => c.id)).toEqual([a.id]);
    const active = await t.request(`/api/gift-cards?recipientEmail=${email}&state=active&currency=EUR`, { apiKey: admin });
    expect(active.body.data.map((c: any) => c.id)).toEqual([b.id]);
  });

  it('disables (idempotent) and the card then looks disabled to shoppers', async () => {
    const card = await issue();
    const first = await t.request(`/api/gift-cards/${card.id}/disable`, { apiKey: admin, body: { reason: 'lost' } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ state: 'disabled', note: 'lost' });
    const again = await t.request(`/api/gift-cards/${card.id}/disable`, { apiKey: admin, body: {} });
    expect(again.status).toBe(200);
    const customer = await t.signIn('customer');
    const lookup = await t.request('/api/gift-cards/lookup', { bearer: customer.token, body: { code: card.code } });
    expect(lookup.body.data).toMatchObject({ state: 'disabled', usable: false, balance: 5000 });
  });

  it('adjusts up and down, never below zero', async () => {
    const card = await issue({ initialBalance: 1000 });
    const down = await t.request(`/api/gift-cards/${card.id}/adjust`, { apiKey: admin, body: { amount: -400, note: 'correction' } });
    expect(down.status, down.text).toBe(200);
    expect(down.body.data.balance).toBe(600);
    const tooMuch = await t.request(`/api/gift-cards/${card.id}/adjust`, { apiKey: admin, body: { amount: -601, note: 'too much' } });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.details.reason).toBe('GIFT_CARD_INSUFFICIENT_BALANCE');
    const up = await t.request(`/api/gift-cards/${card.id}/adjust`, { apiKey: admin, body: { amount: 50, note: 'goodwill' } });
    expect(up.body.data.entries.map((e: any) => [e.kind, e.amount, e.balanceAfter])).toEqual([
      ['issue', 1000, 1000],
      ['adjust', -400, 600],
      ['adjust', 50, 650],
    ]);
  });

  it('answers over GraphQL too', async () => {
    const issued = await t.graphql('mutation { giftCardIssue(initialBalance: 700, currency: "USD") { id code balance state } }', {}, { apiKey: admin });
    expect(issued.body.errors).toBeUndefined();
    const card = issued.body.data.giftCardIssue;
    const got = await t.graphql('query($id: UUID!) { giftCard(id: $id) { id maskedCode balance entries { kind amount } } }', { id: card.id }, { apiKey: admin });
    expect(got.body.data.giftCard).toMatchObject({ id: card.id, balance: 700, entries: [{ kind: 'issue', amount: 700 }] });
    const list = await t.graphql('{ giftCards(limit: 2) { data { id maskedCode } meta { pagination { total } } } }', {}, { apiKey: admin });
    expect(list.body.errors).toBeUndefined();
    const disabled = await t.graphql('mutation($id: UUID!) { giftCardDisable(id: $id) { state } }', { id: card.id }, { apiKey: admin });
    expect(disabled.body.data.giftCardDisable.state).toBe('disabled');
    const customer = await t.signIn('customer');
    const balance = await t.graphql(
      'query($code: String!) { giftCardBalance(code: $code) { balance state usable } }',
      { code: card.code.toLowerCase() },
      { bearer: customer.token },
    );
    expect(balance.body.data.giftCardBalance).toEqual({ balance: 700, state: 'disabled', usable: false });
  });
});

describe('access', () => {
  it('staff routes refuse anonymous callers and customers', async () => {
    const card = await issue();
    await expectGuarded(t, '/api/gift-cards', { method: 'POST', body: { initialBalance: 100, currency: 'USD' } });
    await expectGuarded(t, '/api/gift-cards');
    await expectGuarded(t, `/api/gift-cards/${card.id}`);
    await expectGuarded(t, `/api/gift-cards/${card.id}/disable`, { method: 'POST', body: {} });
  });

  it("another organization's admin cannot see, disable or look up our cards", async () => {
    const card = await issue();
    const other = await otherOrganization(t);
    expect((await t.request(`/api/gift-cards/${card.id}`, { apiKey: other.admin })).status).toBe(404);
    expect((await t.request(`/api/gift-cards/${card.id}/disable`, { apiKey: other.admin, body: {} })).status).toBe(404);
    const list = await t.request('/api/gift-cards?limit=100', { apiKey: other.admin });
    expect(list.body.data.map((c: any) => c.id)).not.toContain(card.id);
    expect((await t.request('/api/gift-cards/lookup', { apiKey: other.admin, body: { code: card.code } })).status).toBe(404);
    expect((await t.request(`/api/gift-cards/${card.id}`, { apiKey: admin })).body.data.state).toBe('active');
  });
});

describe('lookup', () => {
  it('a shopper sees balance and state; an unknown code is 404', async () => {
    const card = await issue({ initialBalance: 2500, expiresAt: '2999-01-01T00:00:00Z' });
    const customer = await t.signIn('customer');
    const res = await t.request('/api/gift-cards/lookup', { bearer: customer.token, body: { code: card.code.replace(/-/g, ' ').toLowerCase() } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({
      maskedCode: card.maskedCode,
      last4: card.last4,
      currency: 'USD',
      balance: 2500,
      state: 'active',
      expiresAt: '2999-01-01T00:00:00.000Z',
      usable: true,
    });
    const unknown = await t.request('/api/gift-cards/lookup', { bearer: customer.token, body: { code: 'AAAA-BBBB-CCCC-DDDD' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect((await t.request('/api/gift-cards/lookup', { body: { code: card.code } })).status).toBe(401);
  });

  it("spends the caller's guess budget: the fourth of three is 429, and one code per GraphQL request", async () => {
    const limited = await startTestApp({ rateLimit: { guess: { points: 3, durationSeconds: 60 } } });
    try {
      const customer = await limited.signIn('customer');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.request('/api/gift-cards/lookup', { bearer: customer.token, body: { code: `GUESS-${i}AAA-BBBB-CCCC` } })).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
      const other = await limited.signIn('customer');
      const aliased = await limited.graphql(
        '{ a: giftCardBalance(code: "AAAA-AAAA-AAAA-AAAA") { balance } b: giftCardBalance(code: "BBBB-BBBB-BBBB-BBBB") { balance } }',
        {},
        { bearer: other.token },
      );
      expect((aliased.body.errors ?? []).map((e: any) => e.extensions.code)).toContain('TOO_MANY_REQUESTS');
    } finally {
      await limited.close();
    }
  });
});

describe('concurrency', () => {
  it('two debits racing for the last balance on separate connections: one wins', async () => {
    const card = await issue({ initialBalance: 1000 });
    const results = await race(
      t.url,
      [0, 1].map(() => ({ path: `/api/gift-cards/${card.id}/adjust`, apiKey: admin, body: { amount: -800, note: 'race' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = await t.request(`/api/gift-cards/${card.id}`, { apiKey: admin });
    expect(after.body.data.balance).toBe(200);
    expect(after.body.data.entries.filter((e: any) => e.kind === 'adjust')).toHaveLength(1);
  });
});
