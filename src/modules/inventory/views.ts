// Inventory records as the API shows them, and as event payloads carry them. Stock levels come
// from Prisma rows or from raw SQL (the atomic updates), so both map here.
import type { InventoryLevel, InventoryMovement, InventoryReservation, Warehouse } from '../../generated/prisma/client.js';

export interface WarehouseView {
  id: string;
  name: string;
  code: string;
  address: Record<string, unknown> | null;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function warehouseView(row: Warehouse): WarehouseView {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    address: (row.address as Record<string, unknown> | null) ?? null,
    isDefault: row.isDefault,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface LevelView {
  id: string;
  entityId: string;
  variantId: string | null;
  warehouseId: string;
  onHand: number;
  reserved: number;
  /** on hand − reserved; negative only when stock was written off under reservations. */
  available: number;
  /** Moving average cost per unit, minor units of the organization's currency; null = unknown. */
  unitCost: bigint | null;
  /** on hand × unit cost (0 when nothing is on hand); null when the cost is unknown. */
  inventoryValue: bigint | null;
  reorderThreshold: number;
  /** available ≤ reorder threshold. */
  lowStock: boolean;
  lastRestockedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function levelView(row: InventoryLevel): LevelView {
  const available = row.onHand - row.reserved;
  return {
    id: row.id,
    entityId: row.entityId,
    variantId: row.variantId,
    warehouseId: row.warehouseId,
    onHand: row.onHand,
    reserved: row.reserved,
    available,
    unitCost: row.unitCost,
    inventoryValue: row.unitCost === null ? null : row.onHand > 0 ? row.unitCost * BigInt(row.onHand) : 0n,
    reorderThreshold: row.reorderThreshold,
    lowStock: available <= row.reorderThreshold,
    lastRestockedAt: row.lastRestockedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A level row as raw SQL returns it (snake_case columns). */
export interface LevelRow {
  id: string;
  organization_id: string;
  entity_id: string;
  variant_id: string | null;
  variant_key: string;
  warehouse_id: string;
  on_hand: number;
  reserved: number;
  unit_cost: bigint | null;
  reorder_threshold: number;
  last_restocked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function levelFromRow(row: LevelRow): InventoryLevel {
  return {
    id: row.id,
    organizationId: row.organization_id,
    entityId: row.entity_id,
    variantId: row.variant_id,
    variantKey: row.variant_key,
    warehouseId: row.warehouse_id,
    onHand: Number(row.on_hand),
    reserved: Number(row.reserved),
    unitCost: row.unit_cost === null ? null : BigInt(row.unit_cost),
    reorderThreshold: Number(row.reorder_threshold),
    lastRestockedAt: row.last_restocked_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface MovementView {
  id: string;
  levelId: string;
  entityId: string;
  variantId: string | null;
  warehouseId: string;
  type: string;
  quantity: number;
  onHandAfter: number;
  unitCost: bigint | null;
  reference: string | null;
  note: string | null;
  actorId: string | null;
  createdAt: Date;
}

export function movementView(row: InventoryMovement): MovementView {
  return {
    id: row.id,
    levelId: row.levelId,
    entityId: row.entityId,
    variantId: row.variantId,
    warehouseId: row.warehouseId,
    type: row.type,
    quantity: row.quantity,
    onHandAfter: row.onHandAfter,
    unitCost: row.unitCost,
    reference: row.reference,
    note: row.note,
    actorId: row.actorId,
    createdAt: row.createdAt,
  };
}

export interface ReservationView {
  id: string;
  levelId: string;
  entityId: string;
  variantId: string | null;
  warehouseId: string;
  quantity: number;
  released: number;
  consumed: number;
  /** quantity − released − consumed: what the reservation still holds. */
  outstanding: number;
  reference: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function reservationView(row: InventoryReservation): ReservationView {
  return {
    id: row.id,
    levelId: row.levelId,
    entityId: row.entityId,
    variantId: row.variantId,
    warehouseId: row.warehouseId,
    quantity: row.quantity,
    released: row.released,
    consumed: row.consumed,
    outstanding: row.quantity - row.released - row.consumed,
    reference: row.reference,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** JSON forms for event payloads (numbers, ISO dates). */
export function levelPayload(level: LevelView) {
  return {
    id: level.id,
    entityId: level.entityId,
    variantId: level.variantId,
    warehouseId: level.warehouseId,
    onHand: level.onHand,
    reserved: level.reserved,
    available: level.available,
    unitCost: level.unitCost === null ? null : Number(level.unitCost),
    reorderThreshold: level.reorderThreshold,
    lowStock: level.lowStock,
    lastRestockedAt: level.lastRestockedAt?.toISOString() ?? null,
  };
}

export function movementPayload(movement: MovementView) {
  return {
    id: movement.id,
    type: movement.type,
    quantity: movement.quantity,
    onHandAfter: movement.onHandAfter,
    unitCost: movement.unitCost === null ? null : Number(movement.unitCost),
    reference: movement.reference,
    note: movement.note,
    createdAt: movement.createdAt.toISOString(),
  };
}

export type LevelPayload = ReturnType<typeof levelPayload>;
export type MovementPayload = ReturnType<typeof movementPayload>;
