// Reserving every line of an order in ONE statement (checkout's hot path; reserveMany does the
// same one line and three statements at a time). Same rules as reserveStock:
//   - a line is served by one warehouse: the default one if it has enough, else the one with the
//     most available (ties by level id), never a warehouse that cannot cover the whole line;
//   - never oversells: the candidate levels are locked first, in level-id order (so concurrent
//     checkouts cannot deadlock each other), the choice is made on the locked (newest) values,
//     and the UPDATE re-checks on_hand − reserved ≥ q;
//   - all or none: the UPDATE runs only when every line found a warehouse, and the caller
//     checks that every line was reserved (else it throws, naming the first line, in the order
//     given, that could not be covered — the message reserveStock gives).
// Call it inside the caller's transaction (checkout does). Lines must name distinct
// (entity, variant) pairs: two lines of one level would need the first's reservation to be
// seen by the second's choice; callers with repeated pairs use reserveMany.
import { conflict } from '../../errors.js';
import type { ServiceContext } from '../../db/transaction.js';
import { rawQuery } from '../../db/direct.js';
import { Prisma } from '../../generated/prisma/client.js';

export interface ReserveLine {
  entityId: string;
  variantId: string | null;
  quantity: number;
  reference: string | null;
  /** Only this warehouse may serve the line (a pickup order reserves where it is collected). */
  warehouseId?: string | null;
}

export interface LineReservation {
  warehouseId: string;
  quantity: number;
}

interface Row {
  idx: number;
  warehouse_id: string | null;
  /** A warehouse could cover the line (on the locked values). */
  coverable: boolean;
  available: number | null;
}

/** Whether `lines` can go through reserveLines (no (entity, variant) pair twice). */
export function distinctStockKeys(lines: readonly Pick<ReserveLine, 'entityId' | 'variantId'>[]): boolean {
  return new Set(lines.map((l) => `${l.entityId}/${l.variantId ?? ''}`)).size === lines.length;
}

/** Reserves every line (index for index) or throws 409 CONFLICT for the first that cannot be covered. */
export async function reserveLines(ctx: ServiceContext, lines: readonly ReserveLine[]): Promise<LineReservation[]> {
  if (!lines.length) return [];
  if (!distinctStockKeys(lines)) throw new Error('reserveLines: an (entity, variant) pair is named twice; use reserveMany');
  const org = ctx.organization.id;
  const rows = await rawQuery<Row>(
    ctx.db,
    Prisma.sql`
    with req as (
      select r.entity_id, coalesce(r.variant_id::text, '') as variant_key, r.variant_id, r.qty, r.reference, r.warehouse_id, r.idx::int as idx
      from unnest(${lines.map((l) => l.entityId)}::uuid[], ${lines.map((l) => l.variantId)}::uuid[], ${lines.map((l) => l.quantity)}::int[], ${lines.map((l) => l.reference)}::text[],
        ${lines.map((l) => l.warehouseId ?? null)}::uuid[])
        with ordinality as r(entity_id, variant_id, qty, reference, warehouse_id, idx)
    ),
    locked as (
      select l.id, l.entity_id, l.variant_key, l.warehouse_id, l.on_hand, l.reserved
      from inventory_levels l
      where l.organization_id = ${org}::uuid and (l.entity_id, l.variant_key) in (select entity_id, variant_key from req)
      order by l.id
      for update of l
    ),
    chosen as (
      select distinct on (r.idx) r.idx, k.id, r.qty
      from req r
      join locked k on k.entity_id = r.entity_id and k.variant_key = r.variant_key
      left join warehouses w on w.id = k.warehouse_id
      where k.on_hand - k.reserved >= r.qty and (r.warehouse_id is null or k.warehouse_id = r.warehouse_id)
      order by r.idx, w.is_default desc, k.on_hand - k.reserved desc, k.id
    ),
    upd as (
      update inventory_levels l set reserved = l.reserved + c.qty, updated_at = now()
      from chosen c
      where l.id = c.id and l.on_hand - l.reserved >= c.qty and (select count(*) from chosen) = ${lines.length}
      returning l.id, l.entity_id, l.variant_id, l.warehouse_id, c.idx, c.qty
    ),
    ins as (
      insert into inventory_reservations (id, organization_id, level_id, entity_id, variant_id, warehouse_id, quantity, reference, actor_id, updated_at)
      select gen_random_uuid(), ${org}::uuid, u.id, u.entity_id, u.variant_id, u.warehouse_id, u.qty, r.reference, ${ctx.actor?.userId ?? null}, now()
      from upd u join req r on r.idx = u.idx
    )
    select r.idx, u.warehouse_id, exists (select 1 from chosen c where c.idx = r.idx) as coverable,
      (select max(k.on_hand - k.reserved) from locked k where k.entity_id = r.entity_id and k.variant_key = r.variant_key
        and (r.warehouse_id is null or k.warehouse_id = r.warehouse_id))::int as available
    from req r left join upd u on u.idx = r.idx
    order by r.idx`,
  );
  // The first line nothing could cover; if all could (the UPDATE's re-check cannot refuse a locked
  // row, so this is defensive), the first line left unreserved.
  const missing = rows.find((row) => !row.coverable) ?? rows.find((row) => !row.warehouse_id);
  if (missing) {
    const available = Math.max(0, missing.available ?? 0);
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const q = lines[missing.idx - 1]!.quantity;
    throw conflict(`only ${available} available in any one warehouse; cannot reserve ${q}`, { available, requested: q });
  }
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return rows.map((row, i) => ({ warehouseId: row.warehouse_id!, quantity: lines[i]!.quantity }));
}
