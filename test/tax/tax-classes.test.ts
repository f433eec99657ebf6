import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { auditOf, createEntity, ctxFor, expectGuarded, otherOrganization, unique } from '../inventory/helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

const slug = () =>
  unique('rate')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');

async function createClass(body: Record<string, unknown>, apiKey = admin): Promise<any> {
  const res = await t.request('/api/tax/classes', { apiKey, body: { name: slug(), rateBps: 2000, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

describe('tax classes', () => {
  it('creates, lists, updates and deletes; audited', async () => {
    const other = await otherOrganization(t);
    const standard = await createClass({ name: 'standard', rateBps: 2000, isDefault: true }, other.admin);
    expect(standard).toMatchObject({ name: 'standard', rateBps: 2000, isDefault: true, isActive: true });
    const reduced = await createClass({ name: 'reduced', rateBps: 500, description: 'Food and books' }, other.admin);
    const list = await t.request('/api/tax/classes', { apiKey: other.admin });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: any) => c.name)).toEqual(['reduced', 'standard']);

    const updated = await t.request(`/api/tax/classes/${reduced.id}`, { method: 'PATCH', apiKey: other.admin, body: { rateBps: 700, isActive: false } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ rateBps: 700, isActive: false, description: 'Food and books' });
    expect((await auditOf(t, other.admin, 'tax_class', reduced.id))[0]).toMatchObject({ event: 'tax.classUpdate', before: { rateBps: 500 }, after: { rateBps: 700 } });

    const deleted = await t.request(`/api/tax/classes/${reduced.id}`, { method: 'DELETE', apiKey: other.admin });
    expect(deleted.status).toBe(200);
    expect((await t.request('/api/tax/classes', { apiKey: other.admin })).body.data.map((c: any) => c.name)).toEqual(['standard']);
    expect((await auditOf(t, other.admin, 'tax_class', reduced.id))[0]).toMatchObject({ event: 'tax.classDelete', before: { name: 'reduced' }, after: null });
  });

  it('keeps one default per organization: a new default unsets the previous one', async () => {
    const other = await otherOrganization(t);
    const a = await createClass({ isDefault: true }, other.admin);
    const b = await createClass({ isDefault: true }, other.admin);
    const c = await createClass({}, other.admin);
    let defaults = (await t.request('/api/tax/classes', { apiKey: other.admin })).body.data.filter((x: any) => x.isDefault).map((x: any) => x.id);
    expect(defaults).toEqual([b.id]);
    await t.request(`/api/tax/classes/${c.id}`, { method: 'PATCH', apiKey: other.admin, body: { isDefault: true } });
    defaults = (await t.request('/api/tax/classes', { apiKey: other.admin })).body.data.filter((x: any) => x.isDefault).map((x: any) => x.id);
    expect(defaults).toEqual([c.id]);
    expect(a.id).not.toBe(c.id);
  });

  it('refuses duplicates (409), bad input (422), unknown ids (404), and deleting a class in use (409)', async () => {
    const taken = await createClass({});
    const dup = await t.request('/api/tax/classes', { apiKey: admin, body: { name: taken.name, rateBps: 100 } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    const other = await createClass({});
    expect((await t.request(`/api/tax/classes/${other.id}`, { method: 'PATCH', apiKey: admin, body: { name: taken.name } })).status).toBe(409);
    for (const body of [
      { name: 'Has Caps', rateBps: 1 },
      { name: 'ok-name', rateBps: -1 },
      { name: 'ok-name', rateBps: 10_001 },
      { name: 'ok-name', rateBps: 12.5 },
      { rateBps: 5 },
      { name: 'ok-name' },
    ]) {
      const res = await t.request('/api/tax/classes', { apiKey: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const missing = '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    expect((await t.request(`/api/tax/classes/${missing}`, { method: 'PATCH', apiKey: admin, body: { rateBps: 1 } })).status).toBe(404);
    expect((await t.request(`/api/tax/classes/${missing}`, { method: 'DELETE', apiKey: admin })).status).toBe(404);

    const inUse = await createClass({});
    await createEntity(t, admin, { taxClassId: inUse.id });
    const refused = await t.request(`/api/tax/classes/${inUse.id}`, { method: 'DELETE', apiKey: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual({ entities: 1, variants: 0 });
  });

  it('keeps organizations apart', async () => {
    const mine = await createClass({});
    const other = await otherOrganization(t);
    expect((await t.request('/api/tax/classes', { apiKey: other.admin })).body.data.map((c: any) => c.id)).not.toContain(mine.id);
    expect((await t.request(`/api/tax/classes/${mine.id}`, { method: 'PATCH', apiKey: other.admin, body: { rateBps: 1 } })).status).toBe(404);
    expect((await t.request(`/api/tax/classes/${mine.id}`, { method: 'DELETE', apiKey: other.admin })).status).toBe(404);
    // The same name is free in another organization.
    expect((await t.request('/api/tax/classes', { apiKey: other.admin, body: { name: mine.name, rateBps: 1 } })).status).toBe(201);
  });

  it('needs tax:manage (not even staff has it)', async () => {
    const existing = await createClass({});
    await expectGuarded(t, '/api/tax/classes');
    await expectGuarded(t, '/api/tax/classes', { body: { name: 'x', rateBps: 1 } });
    await expectGuarded(t, `/api/tax/classes/${existing.id}`, { method: 'PATCH', body: { rateBps: 1 } });
    await expectGuarded(t, `/api/tax/classes/${existing.id}`, { method: 'DELETE' });
    expect((await t.request('/api/tax/classes', { body: { rateBps: 'lots' } })).status).toBe(401);
    const staff = await t.signIn('staff');
    expect((await t.request('/api/tax/classes', { bearer: staff.token })).status).toBe(403);
  });

  it('works over GraphQL', async () => {
    const name = slug();
    const res = await t.graphql(`mutation($n: String!) { taxClassCreate(name: $n, rateBps: 825) { name rateBps isDefault } }`, { n: name }, { apiKey: admin });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.taxClassCreate).toEqual({ name, rateBps: 825, isDefault: false });
    const list = await t.graphql(`{ taxClasses { name } }`, {}, { apiKey: admin });
    expect(list.body.data!.taxClasses.map((c: any) => c.name)).toContain(name);
  });
});

describe('per-line tax resolver', () => {
  it('resolves variant class, then entity class, then the default class, then 0; skipping inactive classes', async () => {
    const other = await otherOrganization(t);
    const ctx = await ctxFor(t, other.id);
    const entityClass = await createClass({ rateBps: 1000 }, other.admin);
    const variantClass = await createClass({ rateBps: 500 }, other.admin);
    const plain = await createEntity(t, other.admin);
    const classed = await createEntity(t, other.admin, { taxClassId: entityClass.id });
    const variantRes = await t.request(`/api/catalog/entities/${classed.id}/variants`, { apiKey: other.admin, body: { taxClassId: variantClass.id } });
    expect(variantRes.status, variantRes.text).toBe(201);
    const variant = variantRes.body.data;
    const lines = [{ entityId: classed.id, variantId: variant.id }, { entityId: classed.id }, { entityId: plain.id }];

    // No default class yet: the plain entity pays 0.
    let rates = await t.app.services.tax.resolveTaxRates(ctx, lines);
    expect(rates.map((r) => [r.source, r.rateBps])).toEqual([
      ['variant', 500],
      ['entity', 1000],
      ['none', 0],
    ]);

    const standard = await createClass({ rateBps: 2000, isDefault: true }, other.admin);
    rates = await t.app.services.tax.resolveTaxRates(ctx, lines);
    expect(rates.map((r) => [r.source, r.rateBps, r.taxClassId])).toEqual([
      ['variant', 500, variantClass.id],
      ['entity', 1000, entityClass.id],
      ['default', 2000, standard.id],
    ]);

    // Deactivating a class moves its lines to the next step.
    await t.request(`/api/tax/classes/${variantClass.id}`, { method: 'PATCH', apiKey: other.admin, body: { isActive: false } });
    await t.request(`/api/tax/classes/${entityClass.id}`, { method: 'PATCH', apiKey: other.admin, body: { isActive: false } });
    rates = await t.app.services.tax.resolveTaxRates(ctx, lines);
    expect(rates.map((r) => r.source)).toEqual(['default', 'default', 'default']);

    // Another organization's view of these entities: nothing resolves (its own default only).
    const mine = await ctxFor(t);
    const foreign = await t.app.services.tax.resolveTaxRates(mine, lines);
    expect(foreign.every((r) => r.taxClassId !== variantClass.id && r.taxClassId !== entityClass.id)).toBe(true);
    expect(t.app.services.tax.lineTax(999n, 2000)).toBe(200n); // 199.8 → 200
  });

  it("answers a batch in one statement, inside the caller's transaction", async () => {
    const entities = await Promise.all(Array.from({ length: 10 }, () => createEntity(t, admin)));
    const ctx = await ctxFor(t);
    const before = t.statements();
    const rates = await t.app.db.$transaction((tx) =>
      t.app.services.tax.resolveTaxRates(
        { ...ctx, db: tx },
        entities.map((e) => ({ entityId: e.id })),
      ),
    );
    expect(rates).toHaveLength(10);
    expect(t.statements() - before).toBe(2); // the resolver's statement and COMMIT
  });
});
