import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { auditOf, createWarehouse, expectGuarded, otherOrganization, unique } from './helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

describe('warehouses', () => {
  it('creates (201) the first warehouse as the default, lists the default first, and moves the default', async () => {
    const first = await createWarehouse(t, admin, { name: 'Main', code: 'MAIN', address: { line1: '1 Dock Road', city: 'Leeds', postalCode: 'LS1 1AA', country: 'GB' } });
    expect(first).toMatchObject({ name: 'Main', code: 'MAIN', isDefault: true, address: { city: 'Leeds', country: 'GB' } });
    const second = await createWarehouse(t, admin, { name: 'Overflow', code: 'OVER' });
    expect(second.isDefault).toBe(false);

    let list = await t.request('/api/inventory/warehouses', { apiKey: admin });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: any) => w.code)).toEqual(['MAIN', 'OVER']);
    expect(list.body.meta.pagination).toMatchObject({ page: 1, total: 2 });

    const third = await createWarehouse(t, admin, { name: 'New main', code: 'NEW', isDefault: true });
    expect(third.isDefault).toBe(true);
    list = await t.request('/api/inventory/warehouses', { apiKey: admin });
    expect(list.body.data.filter((w: any) => w.isDefault).map((w: any) => w.code)).toEqual(['NEW']);
  });

  it('refuses a duplicate code with 409 and bad input with 422', async () => {
    await createWarehouse(t, admin, { code: 'DUP' });
    const dup = await t.request('/api/inventory/warehouses', { apiKey: admin, body: { name: 'Again', code: 'DUP' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    for (const body of [
      { name: 'x' },
      { name: '', code: 'OK' },
      { name: 'x', code: 'has space' },
      { name: 'x', code: 'A1', address: { country: 'Germany' } },
      { name: 'x', code: 'A2', address: { planet: 'Mars' } },
    ]) {
      const res = await t.request('/api/inventory/warehouses', { apiKey: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('needs inventory:read to list and inventory:adjust to create; staff has both', async () => {
    await expectGuarded(t, '/api/inventory/warehouses');
    await expectGuarded(t, '/api/inventory/warehouses', { method: 'POST', body: { name: 'x', code: 'X' } });
    expect((await t.request('/api/inventory/warehouses', { body: { nonsense: 1 } })).status).toBe(401);
    const staff = await t.signIn('staff');
    const res = await t.request('/api/inventory/warehouses', { bearer: staff.token, body: { name: 'Staff made', code: unique('S').slice(0, 30) } });
    expect(res.status).toBe(201);
  });

  it('keeps organizations apart: same code allowed, lists do not mix', async () => {
    const other = await otherOrganization(t);
    const mine = await createWarehouse(t, admin, { code: 'SHARED' });
    const theirs = await createWarehouse(t, other.admin, { code: 'SHARED' });
    expect(theirs.isDefault).toBe(true);
    const list = await t.request('/api/inventory/warehouses?limit=100', { apiKey: other.admin });
    expect(list.body.data.map((w: any) => w.id)).toEqual([theirs.id]);
    expect(list.body.data.map((w: any) => w.id)).not.toContain(mine.id);
  });

  it('is audited and works over GraphQL', async () => {
    const res = await t.graphql(`mutation { warehouseCreate(name: "Via GraphQL", code: "GQL") { id code isDefault } }`, {}, { apiKey: admin });
    expect(res.body.errors).toBeUndefined();
    const id = res.body.data!.warehouseCreate.id;
    const [entry] = await auditOf(t, admin, 'warehouse', id);
    expect(entry).toMatchObject({ event: 'inventory.warehouseCreate', entityType: 'warehouse', entityId: id, actorType: 'apiKey', after: { code: 'GQL' } });
    const list = await t.graphql(`{ warehouses(limit: 50) { data { code } meta { pagination { total } } } }`, {}, { apiKey: admin });
    expect(list.body.data!.warehouses.data.map((w: any) => w.code)).toContain('GQL');
  });
});
