// Adjustments: every change of on hand is one movement row (the ledger) and one atomic update of
// the level, in one transaction, with the event inventory.afterAdjust.
//
// The adjustment types, as data: which sign the quantity must have, and whether on hand may go
// below zero. Only `backorder` (a sale taken against stock not yet received) may; every other
// type that would leave on hand below zero is refused with 409 and changes nothing.
import { conflict, notFound, validationFailed } from '../../errors.js';
import { withTransaction, type ServiceContext } from '../../db/transaction.js';
import { Prisma } from '../../generated/prisma/client.js';
import { paginate, paginateRows, type ListCtx, type Page, type PageInput } from '../../graphql/pagination.js';
import { originOf, recordEvent } from '../../events/outbox.js';
import { resolveStockKeyForWrite } from './refs.js';
import {
  levelFromRow,
  levelPayload,
  levelView,
  movementPayload,
  movementView,
  type LevelPayload,
  type LevelRow,
  type LevelView,
  type MovementPayload,
  type MovementView,
} from './views.js';

declare module '../../events/registry.js' {
  interface EventPayloads {
    'inventory.afterAdjust': { level: LevelPayload; movement: MovementPayload };
  }
}

interface AdjustmentType {
  sign: 'positive' | 'negative' | 'any';
  /** May leave on hand below zero. */
  allowsNegativeOnHand?: boolean;
  /** Sets the level's last restocked time (and may carry a unit cost). */
  restocks?: boolean;
  description: string;
}

export const ADJUSTMENT_TYPES: Record<string, AdjustmentType> = {
  restock: { sign: 'positive', restocks: true, description: 'Goods received; sets last restocked time; `unitCost` updates the moving average cost' },
  return: { sign: 'positive', description: 'A customer return put back into stock' },
  sale: { sign: 'negative', description: 'Units sold outside a reservation (a reserved sale is consumed by the checkout)' },
  damage: { sign: 'negative', description: 'Units damaged and written off' },
  loss: { sign: 'negative', description: 'Units lost or stolen (shrinkage)' },
  correction: { sign: 'any', description: 'A stock count correction, either way' },
  backorder: { sign: 'negative', allowsNegativeOnHand: true, description: 'A sale against stock not yet received: the only type that may take on hand below zero' },
};

export const ADJUSTMENT_TYPE_NAMES = Object.keys(ADJUSTMENT_TYPES) as [string, ...string[]];

export interface AdjustInput {
  entityId: string;
  variantId?: string | null;
  warehouseId?: string | null;
  type: string;
  quantity: number;
  /** Cost per unit of a restock, minor units of the organization's currency. */
  unitCost?: number | null;
  reference?: string | null;
  note?: string | null;
}

export interface AdjustResult {
  level: LevelView;
  movement: MovementView;
}

function checkType(input: AdjustInput): AdjustmentType {
  const type = ADJUSTMENT_TYPES[input.type];
  if (!type) throw validationFailed([{ field: 'type', message: `must be one of ${ADJUSTMENT_TYPE_NAMES.join(', ')}` }]);
  if (input.quantity === 0) throw validationFailed([{ field: 'quantity', message: 'must not be 0' }]);
  if (type.sign === 'positive' && input.quantity < 0) throw validationFailed([{ field: 'quantity', message: `${input.type} takes a positive quantity` }]);
  if (type.sign === 'negative' && input.quantity > 0) throw validationFailed([{ field: 'quantity', message: `${input.type} takes a negative quantity` }]);
  if (input.unitCost != null && !type.restocks) throw validationFailed([{ field: 'unitCost', message: 'only a restock carries a unit cost' }]);
  return type;
}

/** Applies one adjustment (see the header); 409 when it would take on hand below zero. */
export async function adjustStock(ctx: ServiceContext, input: AdjustInput): Promise<AdjustResult> {
  const type = checkType(input);
  return withTransaction(ctx, async (tx) => {
    const key = await resolveStockKeyForWrite(tx, ctx, input);
    const org = ctx.organization.id;
    const q = input.quantity;
    const cost = input.unitCost == null ? null : BigInt(input.unitCost);
    let rows: LevelRow[];
    if (q > 0 || type.allowsNegativeOnHand) {
      // Upsert: a level appears on its first adjustment. The moving average cost weighs the
      // units on hand (never fewer than 0) against the units received, rounded half up.
      rows = await tx.$queryRaw<LevelRow[]>`
        insert into inventory_levels as l (id, organization_id, entity_id, variant_id, variant_key, warehouse_id, on_hand, unit_cost, last_restocked_at, updated_at)
        values (gen_random_uuid(), ${org}::uuid, ${key.entityId}::uuid, ${key.variantId}::uuid, ${key.variantKey}, ${key.warehouseId}::uuid, ${q}, ${cost}::bigint,
                ${type.restocks ? new Date() : null}::timestamptz, now())
        on conflict (warehouse_id, entity_id, variant_key) do update set
          on_hand = l.on_hand + excluded.on_hand,
          unit_cost = case
            when excluded.unit_cost is null then l.unit_cost
            when l.unit_cost is null or l.on_hand <= 0 then excluded.unit_cost
            else ((l.on_hand::bigint * l.unit_cost + ${q}::bigint * excluded.unit_cost) * 2 + (l.on_hand + ${q})) / (2 * (l.on_hand + ${q})::bigint)
          end,
          last_restocked_at = coalesce(excluded.last_restocked_at, l.last_restocked_at),
          updated_at = now()
        returning l.*`;
    } else {
      rows = await tx.$queryRaw<LevelRow[]>`
        update inventory_levels set on_hand = on_hand + ${q}, updated_at = now()
        where warehouse_id = ${key.warehouseId}::uuid and entity_id = ${key.entityId}::uuid and variant_key = ${key.variantKey}
          and on_hand + ${q} >= 0
        returning *`;
      if (!rows.length) {
        const current = await tx.inventoryLevel.findFirst({
          where: { warehouseId: key.warehouseId, entityId: key.entityId, variantKey: key.variantKey },
          select: { onHand: true },
        });
        const onHand = current?.onHand ?? 0;
        throw conflict(`only ${onHand} on hand: ${input.type} of ${-q} would take on hand below zero`, { onHand, quantity: q });
      }
    }
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const level = levelView(levelFromRow(rows[0]!));
    const movement = movementView(
      await tx.inventoryMovement.create({
        data: {
          organizationId: org,
          levelId: level.id,
          entityId: level.entityId,
          variantId: level.variantId,
          warehouseId: level.warehouseId,
          type: input.type,
          quantity: q,
          onHandAfter: level.onHand,
          unitCost: cost,
          reference: input.reference ?? null,
          note: input.note ?? null,
          actorId: ctx.actor?.userId ?? null,
        },
      }),
    );
    await recordEvent(tx, originOf(ctx), 'inventory.afterAdjust', { level: levelPayload(level), movement: movementPayload(movement) });
    return { level, movement };
  });
}

// ── levels and movements ──

export interface LevelListInput {
  entityId?: string;
  variantId?: string;
  warehouseId?: string;
  /** Only levels whose available stock is at or below their reorder threshold. */
  lowStock?: boolean;
  page: number;
  limit: number;
}

export async function listLevels(ctx: ServiceContext & ListCtx, input: LevelListInput & PageInput): Promise<Page<LevelView>> {
  const conditions = [Prisma.sql`organization_id = ${ctx.organization.id}::uuid`];
  if (input.entityId) conditions.push(Prisma.sql`entity_id = ${input.entityId}::uuid`);
  if (input.variantId) conditions.push(Prisma.sql`variant_id = ${input.variantId}::uuid`);
  if (input.warehouseId) conditions.push(Prisma.sql`warehouse_id = ${input.warehouseId}::uuid`);
  if (input.lowStock !== undefined) conditions.push(input.lowStock ? Prisma.sql`on_hand - reserved <= reorder_threshold` : Prisma.sql`on_hand - reserved > reorder_threshold`);
  const where = Prisma.join(conditions, ' and ');
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const count = async () => Number((await ctx.db.$queryRaw<Array<{ n: bigint }>>`select count(*) as n from inventory_levels where ${where}`)[0]!.n);
  // Raw SQL for the low-stock comparison between columns; (entity, variant key, warehouse) is
  // unique, so it orders the list totally and serves as the cursor's position.
  return paginateRows(ctx, input, {
    list: 'inventoryLevels:entityId.asc,variantKey.asc,warehouseId.asc',
    keyLength: 3,
    key: (row: LevelRow & { total: bigint }) => [row.entity_id, row.variant_key, row.warehouse_id],
    fetch: async ({ after, backward, skip, take }) => {
      if (!after) {
        const rows = await ctx.db.$queryRaw<Array<LevelRow & { total: bigint }>>`
          select *, count(*) over () as total from inventory_levels where ${where}
          order by entity_id ${backward ? Prisma.sql`desc` : Prisma.empty}, variant_key ${backward ? Prisma.sql`desc` : Prisma.empty}, warehouse_id ${backward ? Prisma.sql`desc` : Prisma.empty} limit ${take} offset ${skip}`;
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        const total = rows.length ? Number(rows[0]!.total) : skip ? await count() : 0;
        return { rows, total };
      }
      const [entityId, variantKey, warehouseId] = after as [string, string, string];
      const position = backward
        ? Prisma.sql`(entity_id, variant_key, warehouse_id) < (${entityId}::uuid, ${variantKey}, ${warehouseId}::uuid)`
        : Prisma.sql`(entity_id, variant_key, warehouse_id) > (${entityId}::uuid, ${variantKey}, ${warehouseId}::uuid)`;
      const direction = backward ? Prisma.sql`desc` : Prisma.sql`asc`;
      const [rows, total] = await Promise.all([
        ctx.db.$queryRaw<Array<LevelRow & { total: bigint }>>`
          select *, 0::bigint as total from inventory_levels where ${where} and ${position}
          order by entity_id ${direction}, variant_key ${direction}, warehouse_id ${direction} limit ${take}`,
        count(),
      ]);
      return { rows, total };
    },
    view: (rows) => rows.map((row) => levelView(levelFromRow(row))),
  });
}

export async function updateLevel(ctx: ServiceContext, id: string, patch: { reorderThreshold?: number; unitCost?: number | null }): Promise<LevelView> {
  const updated = await ctx.db.inventoryLevel.updateManyAndReturn({
    where: { id, organizationId: ctx.organization.id },
    data: {
      ...(patch.reorderThreshold !== undefined ? { reorderThreshold: patch.reorderThreshold } : {}),
      ...(patch.unitCost !== undefined ? { unitCost: patch.unitCost === null ? null : BigInt(patch.unitCost) } : {}),
    },
  });
  if (!updated.length) throw notFound('Inventory level');
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return levelView(updated[0]!);
}

export async function findLevel(ctx: ServiceContext, id: string): Promise<LevelView | null> {
  const row = await ctx.db.inventoryLevel.findFirst({ where: { id, organizationId: ctx.organization.id } });
  return row ? levelView(row) : null;
}

export interface MovementListInput {
  entityId?: string;
  variantId?: string;
  warehouseId?: string;
  type?: string;
  page: number;
  limit: number;
}

export async function listMovements(ctx: ServiceContext & ListCtx, input: MovementListInput & PageInput): Promise<Page<MovementView>> {
  const where: Prisma.InventoryMovementWhereInput = {
    organizationId: ctx.organization.id,
    ...(input.entityId ? { entityId: input.entityId } : {}),
    ...(input.variantId ? { variantId: input.variantId } : {}),
    ...(input.warehouseId ? { warehouseId: input.warehouseId } : {}),
    ...(input.type ? { type: input.type } : {}),
  };
  return paginate(ctx, input, {
    list: 'inventoryMovements',
    model: 'InventoryMovement',
    where,
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    findMany: (args) => ctx.db.inventoryMovement.findMany(args),
    count: (w) => ctx.db.inventoryMovement.count({ where: w }),
    view: (rows) => rows.map(movementView),
  });
}
