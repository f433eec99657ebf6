import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { adjust, auditOf, createEntity, createEntityWithVariants, createWarehouse, ctxFor, expectGuarded, otherOrganization } from './helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

async function level(entityId: string): Promise<any> {
  const res = await t.request(`/api/inventory/check?entityIds=${entityId}`, { apiKey: admin });
  return res.body.data[0];
}

describe('reserve and release', () => {
  it('reserves (201), refuses more than is available with 409, and releases by reference', async () => {
    const { entity, variants } = await createEntityWithVariants(t, admin, ['S']);
    const variantId = variants[0].id;
    await adjust(t, admin, { entityId: entity.id, variantId, quantity: 5 });

    const first = await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, variantId, quantity: 3, reference: 'cart-1' } });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({ entityId: entity.id, variantId, quantity: 3, outstanding: 3, reference: 'cart-1', level: { onHand: 5, reserved: 3, available: 2 } });

    const tooMany = await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, variantId, quantity: 3, reference: 'cart-2' } });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toMatchObject({ code: 'CONFLICT', details: { available: 2, requested: 3 } });

    const second = await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, variantId, quantity: 2, reference: 'cart-2' } });
    expect(second.status).toBe(201);
    expect((await level(entity.id)).available).toBe(0);

    // cart-1 holds 3: releasing 4 under it is 409, 2 is fine, then the rest.
    const over = await t.request('/api/inventory/release', { apiKey: admin, body: { entityId: entity.id, variantId, quantity: 4, reference: 'cart-1' } });
    expect(over.status).toBe(409);
    expect(over.body.error.details).toEqual({ reserved: 3, requested: 4 });
    const part = await t.request('/api/inventory/release', { apiKey: admin, body: { entityId: entity.id, variantId, quantity: 2, reference: 'cart-1' } });
    expect(part.status, part.text).toBe(200);
    expect(part.body.data).toMatchObject({ quantity: 2, reservations: [{ id: first.body.data.id, released: 2, outstanding: 1 }], levels: [{ reserved: 3, available: 2 }] });
    const byId = await t.request('/api/inventory/release', { apiKey: admin, body: { entityId: entity.id, variantId, quantity: 1, reservationId: first.body.data.id } });
    expect(byId.status).toBe(200);
    expect(await level(entity.id)).toMatchObject({ reserved: 2, available: 3 });

    const [entry] = await auditOf(t, admin, 'inventory', entity.id);
    expect(entry).toMatchObject({ event: 'inventory.release', after: { quantity: 1 } });
  });

  it('serves a reservation from the default warehouse first, else the warehouse with the most available', async () => {
    const entity = await createEntity(t, admin);
    const other = await createWarehouse(t, admin);
    await adjust(t, admin, { entityId: entity.id, quantity: 2 });
    await adjust(t, admin, { entityId: entity.id, warehouseId: other.id, quantity: 10 });
    const fromDefault = await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, quantity: 2 } });
    expect(fromDefault.body.data.warehouseId).not.toBe(other.id);
    const fromOther = await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, quantity: 4 } });
    expect(fromOther.body.data.warehouseId).toBe(other.id);
    const named = await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, warehouseId: fromDefault.body.data.warehouseId, quantity: 1 } });
    expect(named.status).toBe(409);
    // Six left, but only in one warehouse each: seven is 409.
    expect((await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, quantity: 7 } })).status).toBe(409);
  });

  it('never oversells: 20 concurrent reservations for 5 units, exactly 5 succeed', async () => {
    const { entity, variants } = await createEntityWithVariants(t, admin, ['One']);
    const variantId = variants[0].id;
    await adjust(t, admin, { entityId: entity.id, variantId, quantity: 5 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, variantId, quantity: 1, reference: `cart-${i}` } })),
    );
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 201),
      statuses.join(','),
    ).toHaveLength(5);
    expect(
      statuses.filter((s) => s === 409),
      statuses.join(','),
    ).toHaveLength(15);
    expect(await level(entity.id)).toMatchObject({ onHand: 5, reserved: 5, available: 0 });
    const reservations = await t.app.db.inventoryReservation.findMany({ where: { entityId: entity.id } });
    expect(reservations).toHaveLength(5);
  });

  it("never oversells through the service inside callers' transactions either (the checkout path)", async () => {
    const entity = await createEntity(t, admin);
    await adjust(t, admin, { entityId: entity.id, quantity: 5 });
    const ctx = await ctxFor(t);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        t.app.db.$transaction(
          async (tx) => {
            const reservation = await t.app.services.inventory.reserve({ ...ctx, db: tx }, { entityId: entity.id, quantity: 1 });
            // The caller goes on writing in the same transaction before committing.
            await tx.$executeRaw`select pg_sleep(0.01)`;
            return reservation;
          },
          { maxWait: 20_000, timeout: 30_000 },
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as any).status).toBe(409);
    expect(await level(entity.id)).toMatchObject({ reserved: 5, available: 0 });
  });

  it("rolls a reservation back with the caller's transaction", async () => {
    const entity = await createEntity(t, admin);
    await adjust(t, admin, { entityId: entity.id, quantity: 2 });
    const ctx = await ctxFor(t);
    await expect(
      t.app.db.$transaction(async (tx) => {
        await t.app.services.inventory.reserveMany({ ...ctx, db: tx }, [
          { entityId: entity.id, quantity: 1 },
          { entityId: entity.id, quantity: 1 },
        ]);
        throw new Error('payment declined');
      }),
    ).rejects.toThrow('payment declined');
    expect(await level(entity.id)).toMatchObject({ reserved: 0, available: 2 });
    // consume: the reserved units leave with the order.
    const [reservation] = await t.app.services.inventory.reserveMany(ctx, [{ entityId: entity.id, quantity: 2, reference: 'order-1' }]);
    const consumed = await t.app.services.inventory.consume(ctx, { entityId: entity.id, quantity: 2, reference: 'order-1' });
    expect(consumed.levels[0]).toMatchObject({ onHand: 0, reserved: 0 });
    expect(consumed.reservations[0]).toMatchObject({ id: reservation!.id, consumed: 2, outstanding: 0 });
    const movements = await t.request(`/api/inventory/movements?entityId=${entity.id}`, { apiKey: admin });
    expect(movements.body.data[0]).toMatchObject({ type: 'sale', quantity: -2, onHandAfter: 0, reference: 'order-1' });
  });

  it('refuses bad input with 422 and unknown things with 404', async () => {
    const entity = await createEntity(t, admin);
    for (const body of [
      { entityId: entity.id, quantity: 0 },
      { entityId: entity.id, quantity: 1.5 },
      { entityId: entity.id },
      { quantity: 1 },
      { entityId: entity.id, quantity: 1, reference: '' },
    ]) {
      expect((await t.request('/api/inventory/reserve', { apiKey: admin, body })).status, JSON.stringify(body)).toBe(422);
      expect((await t.request('/api/inventory/release', { apiKey: admin, body })).status, JSON.stringify(body)).toBe(422);
    }
    const missing = '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    expect((await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: missing, quantity: 1 } })).status).toBe(404);
    expect((await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, warehouseId: missing, quantity: 1 } })).status).toBe(404);
    expect((await t.request('/api/inventory/release', { apiKey: admin, body: { entityId: entity.id, reservationId: missing, quantity: 1 } })).status).toBe(404);
    expect((await t.request('/api/inventory/release', { apiKey: admin, body: { entityId: entity.id, quantity: 1 } })).status).toBe(409);
    // Untracked stock: nothing to reserve.
    expect((await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, quantity: 1 } })).status).toBe(409);
  });

  it('keeps organizations apart', async () => {
    const entity = await createEntity(t, admin);
    await adjust(t, admin, { entityId: entity.id, quantity: 5 });
    await t.request('/api/inventory/reserve', { apiKey: admin, body: { entityId: entity.id, quantity: 1, reference: 'mine' } });
    const other = await otherOrganization(t);
    expect((await t.request('/api/inventory/reserve', { apiKey: other.admin, body: { entityId: entity.id, quantity: 1 } })).status).toBe(404);
    expect((await t.request('/api/inventory/release', { apiKey: other.admin, body: { entityId: entity.id, quantity: 1, reference: 'mine' } })).status).toBe(404);
  });

  it('needs inventory:adjust', async () => {
    const entity = await createEntity(t, admin);
    await expectGuarded(t, '/api/inventory/reserve', { body: { entityId: entity.id, quantity: 1 } });
    await expectGuarded(t, '/api/inventory/release', { body: { entityId: entity.id, quantity: 1 } });
    expect((await t.request('/api/inventory/reserve', { body: {} })).status).toBe(401);
  });

  it('works over GraphQL', async () => {
    const entity = await createEntity(t, admin);
    await adjust(t, admin, { entityId: entity.id, quantity: 1 });
    const res = await t.graphql(`mutation($id: UUID!) { inventoryReserve(entityId: $id, quantity: 1) { quantity level { available } } }`, { id: entity.id }, { apiKey: admin });
    expect(res.body.data!.inventoryReserve).toEqual({ quantity: 1, level: { available: 0 } });
    const again = await t.graphql(`mutation($id: UUID!) { inventoryReserve(entityId: $id, quantity: 1) { quantity } }`, { id: entity.id }, { apiKey: admin });
    expect(again.body.errors![0].extensions.code).toBe('CONFLICT');
  });
});
