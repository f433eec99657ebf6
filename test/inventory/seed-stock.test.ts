import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createEntity, otherOrganization } from './helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

describe('zero stock for new variants', () => {
  it('variants/quick seeds a zero level in the default warehouse, created when the organization has none', async () => {
    const other = await otherOrganization(t);
    const entity = await createEntity(t, other.admin);
    const res = await t.request(`/api/catalog/entities/${entity.id}/variants/quick`, { apiKey: other.admin, body: { options: { size: 'M', color: 'red' } } });
    expect(res.status, res.text).toBe(201);
    const variantId = res.body.data.id;
    const warehouses = await t.request('/api/inventory/warehouses', { apiKey: other.admin });
    expect(warehouses.body.data).toEqual([expect.objectContaining({ code: 'default', isDefault: true })]);
    const levels = await t.request(`/api/inventory/levels?entityId=${entity.id}`, { apiKey: other.admin });
    expect(levels.body.data).toEqual([expect.objectContaining({ variantId, warehouseId: warehouses.body.data[0].id, onHand: 0, reserved: 0, available: 0 })]);
    // The same call again answers 200 and seeds nothing more.
    const again = await t.request(`/api/catalog/entities/${entity.id}/variants/quick`, { apiKey: other.admin, body: { options: { size: 'M', color: 'red' } } });
    expect(again.status).toBe(200);
    expect((await t.request(`/api/inventory/levels?entityId=${entity.id}`, { apiKey: other.admin })).body.data).toHaveLength(1);
  });

  it('seeds every variant of a matrix in one go, and creates one default warehouse when calls race', async () => {
    const other = await otherOrganization(t);
    const entities = await Promise.all(Array.from({ length: 4 }, () => createEntity(t, other.admin)));
    const results = await Promise.all(
      entities.map((entity) => t.request(`/api/catalog/entities/${entity.id}/variants/bulk`, { apiKey: other.admin, body: { axes: { size: ['S', 'M'], color: ['a', 'b'] } } })),
    );
    for (const res of results) expect(res.status, res.text).toBe(201);
    const warehouses = await t.request('/api/inventory/warehouses', { apiKey: other.admin });
    expect(warehouses.body.data).toHaveLength(1);
    const levels = await t.request(`/api/inventory/levels?limit=100`, { apiKey: other.admin });
    expect(levels.body.meta.pagination.total).toBe(16);
  });

  it('uses the existing default warehouse', async () => {
    const warehouse = await t.request('/api/inventory/warehouses', { apiKey: admin, body: { name: 'Main', code: 'MAIN' } });
    const entity = await createEntity(t, admin);
    await t.request(`/api/catalog/entities/${entity.id}/variants/quick`, { apiKey: admin, body: { options: { size: 'L' } } });
    const levels = await t.request(`/api/inventory/levels?entityId=${entity.id}`, { apiKey: admin });
    expect(levels.body.data[0].warehouseId).toBe(warehouse.body.data.id);
  });
});
