// Reservations: stock promised to a cart or an order. A level's `reserved` is the sum of its
// reservations' outstanding quantities; available = on hand − reserved.
//
// Never oversells. `reserve` is one conditional UPDATE (reserved += q only where on hand −
// reserved ≥ q): PostgreSQL re-checks that condition on the newest row version after waiting for
// a concurrent reserver's lock, so of 20 concurrent reservations for 5 units exactly 5 succeed
// and the rest get 409, on any isolation level and any number of server processes. A reservation
// is served by one warehouse: the one named, else the default warehouse if it has enough, else
// the warehouse with the most available.
//
// `release` (cart abandoned, order cancelled) and `consume` (the reserved units leave with the
// order: on hand and reserved both drop, a `sale` movement is written) lock the reservations they
// settle, newest last, and never settle more than is outstanding.
import { conflict, notFound } from '../../errors.js';
import { withTransaction, type ServiceContext } from '../../db/transaction.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import { resolveStockKey } from './refs.js';
import { levelFromRow, levelPayload, levelView, movementPayload, movementView, reservationView, type LevelRow, type LevelView, type ReservationView } from './views.js';

/** Attempts of the warehouse choice when a concurrent reserver took the chosen one's last units. */
const RESERVE_ATTEMPTS = 3;

export interface ReserveInput {
  entityId: string;
  variantId?: string | null;
  warehouseId?: string | null;
  quantity: number;
  /** What holds the stock: a cart or order id, free text. */
  reference?: string | null;
}

export interface ReservationResult extends ReservationView {
  level: LevelView;
}

async function availableOf(ctx: ServiceContext, key: { entityId: string; variantKey: string; warehouseId: string | null }): Promise<number> {
  const rows = await ctx.db.$queryRaw<Array<{ available: number | null }>>`
    select max(on_hand - reserved)::int as available from inventory_levels
    where organization_id = ${ctx.organization.id}::uuid and entity_id = ${key.entityId}::uuid and variant_key = ${key.variantKey}
      and (${key.warehouseId}::uuid is null or warehouse_id = ${key.warehouseId}::uuid)`;
  return Math.max(0, rows[0]?.available ?? 0);
}

export async function reserveStock(ctx: ServiceContext, input: ReserveInput): Promise<ReservationResult> {
  return withTransaction(ctx, async (tx) => {
    const named = input.warehouseId ?? null;
    const key = await resolveStockKey(tx, ctx, input);
    const org = ctx.organization.id;
    const q = input.quantity;
    let row: LevelRow | undefined;
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS && !row; attempt += 1) {
      [row] = await tx.$queryRaw<LevelRow[]>`
        update inventory_levels l set reserved = l.reserved + ${q}, updated_at = now()
        from (
          select c.id from inventory_levels c
          left join warehouses w on w.id = c.warehouse_id
          where c.organization_id = ${org}::uuid and c.entity_id = ${key.entityId}::uuid and c.variant_key = ${key.variantKey}
            and (${named}::uuid is null or c.warehouse_id = ${named}::uuid)
            and c.on_hand - c.reserved >= ${q}
          order by w.is_default desc, c.on_hand - c.reserved desc, c.id
          limit 1
        ) chosen
        where l.id = chosen.id and l.on_hand - l.reserved >= ${q}
        returning l.*`;
      // With a warehouse named there is nothing else to try: the re-checked condition decided.
      if (named) break;
    }
    if (!row) {
      const available = await availableOf({ ...ctx, db: tx }, { ...key, warehouseId: named });
      throw conflict(`only ${available} available${named ? ' in this warehouse' : ' in any one warehouse'}; cannot reserve ${q}`, { available, requested: q });
    }
    const level = levelView(levelFromRow(row));
    const reservation = await tx.inventoryReservation.create({
      data: {
        organizationId: org,
        levelId: level.id,
        entityId: level.entityId,
        variantId: level.variantId,
        warehouseId: level.warehouseId,
        quantity: q,
        reference: input.reference ?? null,
        actorId: ctx.actor?.userId ?? null,
      },
    });
    return { ...reservationView(reservation), level };
  });
}

/** Reserves several lines, one after another in one transaction: all or none. */
export async function reserveMany(ctx: ServiceContext, lines: readonly ReserveInput[]): Promise<ReservationResult[]> {
  return withTransaction(ctx, async (tx) => {
    const out: ReservationResult[] = [];
    for (const line of lines) out.push(await reserveStock({ ...ctx, db: tx }, line));
    return out;
  });
}

export interface SettleInput {
  entityId: string;
  variantId?: string | null;
  warehouseId?: string | null;
  quantity: number;
  reference?: string | null;
  /** Settle this reservation only. */
  reservationId?: string | null;
}

export interface SettleResult {
  quantity: number;
  reservations: ReservationView[];
  levels: LevelView[];
}

async function settle(ctx: ServiceContext, input: SettleInput, mode: 'release' | 'consume'): Promise<SettleResult> {
  return withTransaction(ctx, async (tx) => {
    const key = await resolveStockKey(tx, ctx, { entityId: input.entityId, variantId: input.variantId });
    if (input.warehouseId) {
      const warehouse = await tx.warehouse.count({ where: { id: input.warehouseId, organizationId: ctx.organization.id } });
      if (!warehouse) throw notFound('Warehouse');
    }
    const held = await tx.$queryRaw<InventoryReservationRow[]>`
      select * from inventory_reservations
      where organization_id = ${ctx.organization.id}::uuid and entity_id = ${key.entityId}::uuid
        and variant_id is not distinct from ${key.variantId}::uuid
        and (${input.warehouseId ?? null}::uuid is null or warehouse_id = ${input.warehouseId ?? null}::uuid)
        and (${input.reference ?? null}::text is null or reference = ${input.reference ?? null}::text)
        and (${input.reservationId ?? null}::uuid is null or id = ${input.reservationId ?? null}::uuid)
        and quantity - released - consumed > 0
      order by created_at, id
      for update`;
    const outstanding = held.reduce((sum, r) => sum + r.quantity - r.released - r.consumed, 0);
    if (input.reservationId && !held.length) {
      const exists = await tx.inventoryReservation.count({ where: { id: input.reservationId, organizationId: ctx.organization.id } });
      if (!exists) throw notFound('Reservation');
    }
    if (outstanding < input.quantity) {
      throw conflict(`only ${outstanding} reserved${input.reference ? ` under reference ${input.reference}` : ''}; cannot ${mode} ${input.quantity}`, {
        reserved: outstanding,
        requested: input.quantity,
      });
    }
    let remaining = input.quantity;
    const byLevel = new Map<string, number>();
    const settled: ReservationView[] = [];
    for (const reservation of held) {
      if (!remaining) break;
      const take = Math.min(remaining, reservation.quantity - reservation.released - reservation.consumed);
      remaining -= take;
      byLevel.set(reservation.level_id, (byLevel.get(reservation.level_id) ?? 0) + take);
      const data: Prisma.InventoryReservationUpdateInput = mode === 'release' ? { released: { increment: take } } : { consumed: { increment: take } };
      settled.push(reservationView(await tx.inventoryReservation.update({ where: { id: reservation.id }, data })));
    }
    const levels: LevelView[] = [];
    for (const [levelId, quantity] of byLevel) {
      const [row] =
        mode === 'release'
          ? await tx.$queryRaw<LevelRow[]>`update inventory_levels set reserved = reserved - ${quantity}, updated_at = now() where id = ${levelId}::uuid returning *`
          : await tx.$queryRaw<
              LevelRow[]
            >`update inventory_levels set reserved = reserved - ${quantity}, on_hand = on_hand - ${quantity}, updated_at = now() where id = ${levelId}::uuid returning *`;
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      const level = levelView(levelFromRow(row!));
      levels.push(level);
      if (mode === 'consume') {
        const movement = movementView(
          await tx.inventoryMovement.create({
            data: {
              organizationId: ctx.organization.id,
              levelId,
              entityId: level.entityId,
              variantId: level.variantId,
              warehouseId: level.warehouseId,
              type: 'sale',
              quantity: -quantity,
              onHandAfter: level.onHand,
              reference: input.reference ?? null,
              actorId: ctx.actor?.userId ?? null,
            },
          }),
        );
        await recordEvent(tx, originOf(ctx), 'inventory.afterAdjust', { level: levelPayload(level), movement: movementPayload(movement) });
      }
    }
    return { quantity: input.quantity, reservations: settled, levels };
  });
}

interface InventoryReservationRow {
  id: string;
  level_id: string;
  quantity: number;
  released: number;
  consumed: number;
}

/** Gives reserved units back to available: 409 when less than `quantity` is reserved. */
export function releaseStock(ctx: ServiceContext, input: SettleInput): Promise<SettleResult> {
  return settle(ctx, input, 'release');
}

/** The reserved units leave with the order: on hand and reserved drop together, a sale is recorded. */
export function consumeReservation(ctx: ServiceContext, input: SettleInput): Promise<SettleResult> {
  return settle(ctx, input, 'consume');
}
