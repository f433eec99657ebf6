import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { adjust, auditOf, createEntity, createEntityWithVariants, createWarehouse, eventsWhere, expectGuarded, otherOrganization } from './helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

describe('adjust', () => {
  it('restocks a variant into a warehouse, keeps a movement, and emits inventory.afterAdjust', async () => {
    const { entity, variants } = await createEntityWithVariants(t, admin);
    const warehouse = await createWarehouse(t, admin);
    const first = await adjust(t, admin, {
      entityId: entity.id,
      variantId: variants[0].id,
      warehouseId: warehouse.id,
      type: 'restock',
      quantity: 10,
      unitCost: 400,
      reference: 'PO-1',
    });
    expect(first.level).toMatchObject({
      entityId: entity.id,
      variantId: variants[0].id,
      warehouseId: warehouse.id,
      onHand: 10,
      reserved: 0,
      available: 10,
      unitCost: 400,
      inventoryValue: 4000,
    });
    expect(first.level.lastRestockedAt).toEqual(expect.any(String));
    expect(first.movement).toMatchObject({ type: 'restock', quantity: 10, onHandAfter: 10, unitCost: 400, reference: 'PO-1' });

    // Moving average cost: (10 × 400 + 5 × 700) / 15 = 500.
    const second = await adjust(t, admin, { entityId: entity.id, variantId: variants[0].id, warehouseId: warehouse.id, type: 'restock', quantity: 5, unitCost: 700 });
    expect(second.level).toMatchObject({ onHand: 15, unitCost: 500, inventoryValue: 7500 });
    const sale = await adjust(t, admin, { entityId: entity.id, variantId: variants[0].id, warehouseId: warehouse.id, type: 'sale', quantity: -4 });
    expect(sale.level).toMatchObject({ onHand: 11, unitCost: 500, inventoryValue: 5500 });
    expect(sale.level.lastRestockedAt).toBe(second.level.lastRestockedAt);

    const movements = await t.request(`/api/inventory/movements?entityId=${entity.id}`, { apiKey: admin });
    expect(movements.status).toBe(200);
    expect(movements.body.data.map((m: any) => [m.type, m.quantity, m.onHandAfter])).toEqual([
      ['sale', -4, 11],
      ['restock', 5, 15],
      ['restock', 10, 10],
    ]);
    expect(movements.body.meta.pagination.total).toBe(3);

    const events = await eventsWhere(t, 'inventory.afterAdjust', (p) => p.level.entityId === entity.id);
    expect(events.map((e) => [e.movement.type, e.level.onHand])).toEqual([
      ['restock', 10],
      ['restock', 15],
      ['sale', 11],
    ]);

    const [latest] = await auditOf(t, admin, 'inventory', entity.id);
    expect(latest).toMatchObject({ event: 'inventory.adjust', actorType: 'apiKey', after: { level: { onHand: 11 }, movement: { type: 'sale', quantity: -4 } } });
  });

  it('goes to the default warehouse when none is named, creating it when the organization has none', async () => {
    const other = await otherOrganization(t);
    const entity = await createEntity(t, other.admin);
    const result = await adjust(t, other.admin, { entityId: entity.id, quantity: 3 });
    const warehouses = await t.request('/api/inventory/warehouses', { apiKey: other.admin });
    expect(warehouses.body.data).toEqual([expect.objectContaining({ code: 'default', isDefault: true, id: result.level.warehouseId })]);
    expect(result.level).toMatchObject({ variantId: null, onHand: 3 });
  });

  it('refuses to take on hand below zero with 409 and changes nothing; backorder may', async () => {
    const entity = await createEntity(t, admin);
    await adjust(t, admin, { entityId: entity.id, quantity: 2 });
    for (const type of ['sale', 'damage', 'loss', 'correction']) {
      const res = await t.request('/api/inventory/adjust', { apiKey: admin, body: { entityId: entity.id, type, quantity: -3 } });
      expect(res.status, type).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { onHand: 2, quantity: -3 } });
    }
    const never = await t.request('/api/inventory/adjust', { apiKey: admin, body: { entityId: (await createEntity(t, admin)).id, type: 'damage', quantity: -1 } });
    expect(never.status).toBe(409);
    const backorder = await adjust(t, admin, { entityId: entity.id, type: 'backorder', quantity: -3 });
    expect(backorder.level).toMatchObject({ onHand: -1, available: -1 });
    const movements = await t.request(`/api/inventory/movements?entityId=${entity.id}`, { apiKey: admin });
    expect(movements.body.data.map((m: any) => m.type)).toEqual(['backorder', 'restock']);
  });

  it('keeps on hand exact when adjustments race', async () => {
    const entity = await createEntity(t, admin);
    await adjust(t, admin, { entityId: entity.id, quantity: 10 });
    const results = await Promise.all(
      Array.from({ length: 16 }, () => t.request('/api/inventory/adjust', { apiKey: admin, body: { entityId: entity.id, type: 'sale', quantity: -1 } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(6);
    const levels = await t.request(`/api/inventory/levels?entityId=${entity.id}`, { apiKey: admin });
    expect(levels.body.data[0].onHand).toBe(0);
  });

  it('refuses bad input with 422 naming the field', async () => {
    const entity = await createEntity(t, admin);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ entityId: entity.id, type: 'teleport', quantity: 1 }, 'type'],
      [{ entityId: entity.id, type: 'restock', quantity: 0 }, 'quantity'],
      [{ entityId: entity.id, type: 'restock', quantity: -2 }, 'quantity'],
      [{ entityId: entity.id, type: 'sale', quantity: 2 }, 'quantity'],
      [{ entityId: entity.id, type: 'correction', quantity: 1.5 }, 'quantity'],
      [{ entityId: entity.id, type: 'sale', quantity: -1, unitCost: 100 }, 'unitCost'],
      [{ entityId: entity.id, type: 'restock', quantity: 1, unitCost: 9.99 }, 'unitCost'],
      [{ entityId: 'not-a-uuid', type: 'restock', quantity: 1 }, 'entityId'],
      [{ type: 'restock', quantity: 1 }, 'entityId'],
    ];
    for (const [body, field] of cases) {
      const res = await t.request('/api/inventory/adjust', { apiKey: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      if (res.body.error.details) expect(res.body.error.details.map((d: any) => d.field).join(' '), JSON.stringify(body)).toContain(field);
    }
  });

  it('is 404 for an unknown entity, a variant of another entity, or an unknown warehouse', async () => {
    const entity = await createEntity(t, admin);
    const { variants } = await createEntityWithVariants(t, admin);
    const missing = '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    for (const body of [
      { entityId: missing, type: 'restock', quantity: 1 },
      { entityId: entity.id, variantId: variants[0].id, type: 'restock', quantity: 1 },
      { entityId: entity.id, warehouseId: missing, type: 'restock', quantity: 1 },
    ]) {
      const res = await t.request('/api/inventory/adjust', { apiKey: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it("cannot touch another organization's entities or warehouses (404)", async () => {
    const other = await otherOrganization(t);
    const entity = await createEntity(t, admin);
    const warehouse = await createWarehouse(t, admin);
    expect((await t.request('/api/inventory/adjust', { apiKey: other.admin, body: { entityId: entity.id, type: 'restock', quantity: 5 } })).status).toBe(404);
    const theirs = await createEntity(t, other.admin);
    expect((await t.request('/api/inventory/adjust', { apiKey: other.admin, body: { entityId: theirs.id, warehouseId: warehouse.id, type: 'restock', quantity: 5 } })).status).toBe(
      404,
    );
    const levels = await t.request(`/api/inventory/levels?entityId=${entity.id}`, { apiKey: other.admin });
    expect(levels.body.data).toEqual([]);
    const movements = await t.request(`/api/inventory/movements?entityId=${entity.id}`, { apiKey: other.admin });
    expect(movements.body.data).toEqual([]);
  });

  it('needs inventory:adjust (staff has it; a customer and the storefront scope do not)', async () => {
    const entity = await createEntity(t, admin);
    await expectGuarded(t, '/api/inventory/adjust', { body: { entityId: entity.id, type: 'restock', quantity: 1 } });
    expect((await t.request('/api/inventory/adjust', { body: { quantity: 'lots' } })).status).toBe(401);
    const storefront = await t.apiKey('storefront');
    expect((await t.request('/api/inventory/adjust', { apiKey: storefront, body: { entityId: entity.id, type: 'restock', quantity: 1 } })).status).toBe(403);
    const staff = await t.signIn('staff');
    expect((await t.request('/api/inventory/adjust', { bearer: staff.token, body: { entityId: entity.id, type: 'restock', quantity: 1 } })).status).toBe(200);
  });

  it('works over GraphQL', async () => {
    const entity = await createEntity(t, admin);
    const res = await t.graphql(
      `mutation($id: UUID!) { inventoryAdjust(entityId: $id, type: restock, quantity: 7) { level { onHand available } movement { type quantity } } }`,
      { id: entity.id },
      { apiKey: admin },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.inventoryAdjust).toEqual({ level: { onHand: 7, available: 7 }, movement: { type: 'restock', quantity: 7 } });
  });
});

describe('levels', () => {
  it('lists levels with filters, flags low stock, and updates the reorder threshold and cost', async () => {
    const { entity, variants } = await createEntityWithVariants(t, admin, ['S', 'M']);
    await adjust(t, admin, { entityId: entity.id, variantId: variants[0].id, quantity: 3 });
    await adjust(t, admin, { entityId: entity.id, variantId: variants[1].id, quantity: 30 });
    const all = await t.request(`/api/inventory/levels?entityId=${entity.id}`, { apiKey: admin });
    expect(all.body.data).toHaveLength(2);
    const small = all.body.data.find((l: any) => l.variantId === variants[0].id);
    const update = await t.request(`/api/inventory/levels/${small.id}`, { method: 'PATCH', apiKey: admin, body: { reorderThreshold: 5, unitCost: 250 } });
    expect(update.status).toBe(200);
    expect(update.body.data).toMatchObject({ reorderThreshold: 5, lowStock: true, unitCost: 250, inventoryValue: 750 });
    const low = await t.request(`/api/inventory/levels?entityId=${entity.id}&lowStock=true`, { apiKey: admin });
    expect(low.body.data.map((l: any) => l.variantId)).toEqual([variants[0].id]);
    expect(low.body.meta.pagination.total).toBe(1);
    const [entry] = await auditOf(t, admin, 'inventory', entity.id);
    expect(entry).toMatchObject({ event: 'inventory.levelUpdate', before: { reorderThreshold: 0 }, after: { reorderThreshold: 5 } });

    const other = await otherOrganization(t);
    expect((await t.request(`/api/inventory/levels/${small.id}`, { method: 'PATCH', apiKey: other.admin, body: { reorderThreshold: 1 } })).status).toBe(404);
    expect((await t.request(`/api/inventory/levels/${small.id}`, { method: 'PATCH', apiKey: admin, body: { reorderThreshold: -1 } })).status).toBe(422);
    await expectGuarded(t, `/api/inventory/levels?entityId=${entity.id}`);
    await expectGuarded(t, `/api/inventory/levels/${small.id}`, { method: 'PATCH', body: { reorderThreshold: 1 } });
  });
});
