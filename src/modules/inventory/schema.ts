// Inventory operations: warehouses (create, list), levels (list, update), adjust, movements,
// check, reserve, release. Also the catalog embed `include=inventory` (catalog-hooks.ts).
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { embedField } from '../../graphql/cost.js';
import { AddressRef, type AddressView } from '../../graphql/address.js';
import { defineOperation } from '../../graphql/operation.js';
import { pageOf } from '../../graphql/pagination.js';
import { money, pageInput, withGraphqlInput } from '../../graphql/zod-args.js';
import { notFound, validationFailed } from '../../errors.js';
import { CatalogEntityRef, includedValue } from '../catalog/index.js';
import { ADJUSTMENT_TYPES, ADJUSTMENT_TYPE_NAMES, adjustStock, findLevel, listLevels, listMovements, updateLevel, type AdjustResult } from './adjust.service.js';
import { checkAvailability, type EntityAvailability, type LevelAvailability, type VariantAvailability, type WarehouseAvailability } from './availability.js';
import { INVENTORY_INCLUDE } from './catalog-hooks.js';
import { releaseStock, reserveStock, type ReservationResult, type SettleResult } from './reservations.service.js';
import { createWarehouse, listWarehouses } from './warehouses.service.js';
import { levelPayload, type LevelView, type MovementView, type ReservationView, type WarehouseView } from './views.js';
import { defineEnum } from '../../graphql/enums.js';
const AdjustmentTypeEnum = defineEnum('InventoryAdjustmentType', ADJUSTMENT_TYPE_NAMES, 'Why stock changed: restock, return, sale, damage, loss, correction or backorder.');

const READ = { permission: 'inventory:read' } as const;
const ADJUST = { permission: 'inventory:adjust' } as const;
/** GET /inventory/check takes at most this many entity ids. */
export const MAX_CHECK_IDS = 100;

// ── types ──

export const WarehouseRef = builder.objectRef<WarehouseView>('Warehouse').implement({
  description: 'A stock location. `code` is unique per organization; one warehouse is the default.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    name: t.exposeString('name'),
    code: t.exposeString('code'),
    address: t.field({ type: AddressRef, nullable: true, resolve: (w) => w.address as AddressView | null }),
    isDefault: t.exposeBoolean('isDefault', { description: 'Where stock goes when no warehouse is named' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const InventoryLevelRef = builder.objectRef<LevelView>('InventoryLevel').implement({
  description: 'Stock of one entity (or variant) in one warehouse.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true, description: 'Null for entity-level stock' }),
    warehouseId: t.expose('warehouseId', { type: 'UUID' }),
    onHand: t.exposeInt('onHand'),
    reserved: t.exposeInt('reserved', { description: 'Held by reservations (carts, orders)' }),
    available: t.exposeInt('available', { description: 'onHand − reserved' }),
    unitCost: t.expose('unitCost', { type: 'MinorUnits', nullable: true, description: 'Moving average cost per unit, organization currency; null = unknown' }),
    inventoryValue: t.expose('inventoryValue', { type: 'MinorUnits', nullable: true, description: 'Value at cost: onHand × unitCost' }),
    reorderThreshold: t.exposeInt('reorderThreshold'),
    lowStock: t.exposeBoolean('lowStock', { description: 'available ≤ reorderThreshold' }),
    lastRestockedAt: t.expose('lastRestockedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const InventoryMovementRef = builder.objectRef<MovementView>('InventoryMovement').implement({
  description: 'One change of on hand: the ledger row of an adjustment or of reserved units leaving with an order.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    levelId: t.expose('levelId', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    warehouseId: t.expose('warehouseId', { type: 'UUID' }),
    type: t.expose('type', { type: AdjustmentTypeEnum, description: 'The adjustment type (a reserved sale consumed by checkout is sale)' }),
    quantity: t.exposeInt('quantity', { description: 'Signed change of on hand' }),
    onHandAfter: t.exposeInt('onHandAfter'),
    unitCost: t.expose('unitCost', { type: 'MinorUnits', nullable: true }),
    reference: t.exposeString('reference', { nullable: true }),
    note: t.exposeString('note', { nullable: true }),
    actorId: t.exposeString('actorId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const InventoryAdjustmentRef = builder.objectRef<AdjustResult>('InventoryAdjustment').implement({
  description: 'An applied adjustment: the movement written and the level after it.',
  fields: (t) => ({
    movement: t.expose('movement', { type: InventoryMovementRef }),
    level: t.expose('level', { type: InventoryLevelRef }),
  }),
});

const InventoryReservationRef = builder.objectRef<ReservationView>('InventoryReservation').implement({
  description: 'Stock held for a cart or an order.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    levelId: t.expose('levelId', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    warehouseId: t.expose('warehouseId', { type: 'UUID' }),
    quantity: t.exposeInt('quantity'),
    released: t.exposeInt('released'),
    consumed: t.exposeInt('consumed'),
    outstanding: t.exposeInt('outstanding', { description: 'quantity − released − consumed' }),
    reference: t.exposeString('reference', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const InventoryReservationResultRef = builder.objectRef<ReservationResult>('InventoryReservationResult').implement({
  description: 'A new reservation and the level it holds stock in.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'Reservation id (release with reservationId)' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    warehouseId: t.expose('warehouseId', { type: 'UUID' }),
    quantity: t.exposeInt('quantity'),
    outstanding: t.exposeInt('outstanding'),
    reference: t.exposeString('reference', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    level: t.expose('level', { type: InventoryLevelRef }),
  }),
});

const InventoryReleaseRef = builder.objectRef<SettleResult>('InventoryRelease').implement({
  description: 'Reserved units given back: the reservations settled and the levels after.',
  fields: (t) => ({
    quantity: t.exposeInt('quantity'),
    reservations: t.expose('reservations', { type: [InventoryReservationRef] }),
    levels: t.expose('levels', { type: [InventoryLevelRef] }),
  }),
});

const AVAILABLE_DOC = 'onHand − reserved; totals add levels up floored at 0';

const LevelAvailabilityRef = builder.objectRef<LevelAvailability>('LevelAvailability').implement({
  fields: (t) => ({
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    warehouseId: t.expose('warehouseId', { type: 'UUID' }),
    onHand: t.exposeInt('onHand'),
    reserved: t.exposeInt('reserved'),
    available: t.exposeInt('available', { description: 'onHand − reserved' }),
  }),
});

export const VariantStockRef = builder.objectRef<VariantAvailability>('VariantStock').implement({
  description: 'Stock of one variant over every warehouse (inventory:read). Shoppers read ProductVariant availability (`CatalogVariant.availability`) instead.',
  fields: (t) => ({
    variantId: t.expose('variantId', { type: 'UUID', nullable: true, description: 'Null for entity-level stock' }),
    onHand: t.exposeInt('onHand'),
    reserved: t.exposeInt('reserved'),
    available: t.exposeInt('available', { description: AVAILABLE_DOC }),
  }),
});

const WarehouseAvailabilityRef = builder.objectRef<WarehouseAvailability>('WarehouseAvailability').implement({
  fields: (t) => ({
    warehouseId: t.expose('warehouseId', { type: 'UUID' }),
    onHand: t.exposeInt('onHand'),
    reserved: t.exposeInt('reserved'),
    available: t.exposeInt('available', { description: AVAILABLE_DOC }),
  }),
});

export const EntityAvailabilityRef = builder.objectRef<EntityAvailability>('EntityAvailability').implement({
  description: 'Availability of one entity: in total, per variant, per warehouse and per level.',
  fields: (t) => ({
    entityId: t.expose('entityId', { type: 'UUID' }),
    tracked: t.exposeBoolean('tracked', { description: 'The entity has stock levels at all' }),
    inStock: t.exposeBoolean('inStock', { description: 'available > 0' }),
    onHand: t.exposeInt('onHand'),
    reserved: t.exposeInt('reserved'),
    available: t.exposeInt('available', { description: AVAILABLE_DOC }),
    variants: t.expose('variants', { type: [VariantStockRef] }),
    warehouses: t.expose('warehouses', { type: [WarehouseAvailabilityRef] }),
    levels: t.expose('levels', { type: [LevelAvailabilityRef] }),
  }),
});

builder.objectField(CatalogEntityRef, 'inventory', (t) =>
  t.field({
    extensions: embedField('inventory'),
    type: EntityAvailabilityRef,
    nullable: true,
    description: `Resolved when selected (over REST: embed \`include=inventory\`): ${INVENTORY_INCLUDE.description}. Over REST null unless asked for.`,
    resolve: (entity, _args, ctx) => includedValue<EntityAvailability>(entity, 'inventory', ctx),
  }),
);

// ── inputs ──

const id = z.guid();
const entityId = z.guid().describe('Catalog entity UUID');
const variantId = z.guid().nullable().optional().describe('Variant UUID (of that entity); omit for entity-level stock');
const warehouseId = z.guid().nullable().optional().describe("Warehouse UUID; default: the organization's default warehouse");
const reference = z.string().min(1).max(200).nullable().optional().describe('What the stock is for: a cart or order id');
const quantity = z.number().int('must be a whole number').min(1).max(1_000_000);
const address = z
  .object({
    line1: z.string().max(200).optional(),
    line2: z.string().max(200).optional(),
    city: z.string().max(100).optional(),
    state: z.string().max(100).optional(),
    postalCode: z.string().max(20).optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
      .optional(),
  })
  .strict()
  .describe('Where a warehouse is; every field optional');
withGraphqlInput(address, 'WarehouseAddressInput');

// ── warehouses ──

defineOperation({
  name: 'warehouses',
  kind: 'query',
  summary: 'List warehouses, the default first',
  rest: { method: 'GET', path: '/inventory/warehouses' },
  access: READ,
  input: { ...pageInput(20, 100) },
  output: pageOf('Warehouse', WarehouseRef),
  paginated: true,
  resolve: (ctx, input) => listWarehouses(ctx, input),
});

defineOperation({
  name: 'warehouseCreate',
  kind: 'mutation',
  summary: 'Create a warehouse',
  description: '`code` is unique per organization (409 otherwise). The first warehouse becomes the default; `isDefault: true` moves the default.',
  rest: { method: 'POST', path: '/inventory/warehouses', status: 201 },
  access: ADJUST,
  input: {
    name: z.string().min(1).max(200),
    code: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, 'letters, digits, _ and -, at most 32')
      .describe('Short code, unique per organization'),
    address: address.nullable().optional(),
    isDefault: z.boolean().optional(),
  },
  output: WarehouseRef,
  resolve: (ctx, input) => createWarehouse(ctx, input),
  audit: { event: 'inventory.warehouseCreate', entityType: 'warehouse' },
});

// ── levels, adjustments, movements ──

defineOperation({
  name: 'inventoryLevels',
  kind: 'query',
  summary: 'List stock levels',
  description: 'Filters: entityId, variantId, warehouseId; `lowStock=true` keeps levels at or below their reorder threshold.',
  rest: { method: 'GET', path: '/inventory/levels' },
  access: READ,
  input: { entityId: entityId.optional(), variantId: z.guid().optional(), warehouseId: z.guid().optional(), lowStock: z.boolean().optional(), ...pageInput(20, 100) },
  output: pageOf('InventoryLevel', InventoryLevelRef),
  paginated: true,
  resolve: (ctx, input) => listLevels(ctx, input),
});

defineOperation({
  name: 'inventoryLevelUpdate',
  kind: 'mutation',
  summary: "Set a level's reorder threshold or unit cost",
  rest: { method: 'PATCH', path: '/inventory/levels/:id' },
  access: ADJUST,
  input: {
    id,
    reorderThreshold: z.number().int().min(0).max(1_000_000_000).optional(),
    unitCost: money().nullable().optional().describe('Cost per unit, minor units of the organization currency; null = unknown'),
  },
  output: InventoryLevelRef,
  resolve: (ctx, { id: levelId, ...patch }) => updateLevel(ctx, levelId, patch),
  audit: {
    event: 'inventory.levelUpdate',
    entityType: 'inventory',
    entityId: (_input, level) => level.entityId,
    before: async (ctx, input) => {
      const level = await findLevel(ctx, input.id);
      if (!level) throw notFound('Inventory level');
      return levelPayload(level);
    },
    after: (level) => levelPayload(level),
  },
});

const typesDoc = Object.entries(ADJUSTMENT_TYPES)
  .map(([name, type]) => `${name} (${type.sign === 'any' ? 'either sign' : type.sign}): ${type.description}`)
  .join('; ');

defineOperation({
  name: 'inventoryAdjust',
  kind: 'mutation',
  summary: 'Adjust on hand by a signed quantity',
  description:
    `Types: ${typesDoc}. A level is created on its first adjustment. Taking on hand below zero is 409 (except backorder). ` +
    'Every adjustment is kept as a movement. Emits inventory.afterAdjust.',
  rest: { method: 'POST', path: '/inventory/adjust' },
  access: ADJUST,
  input: {
    entityId,
    variantId,
    warehouseId,
    type: z.enum(ADJUSTMENT_TYPE_NAMES).describe(`One of ${ADJUSTMENT_TYPE_NAMES.join(', ')}`),
    quantity: z.number().int('must be a whole number').min(-1_000_000).max(1_000_000).describe('Signed change of on hand'),
    unitCost: money().nullable().optional().describe('restock only: cost per unit received, minor units of the organization currency'),
    reference,
    note: z.string().max(500).nullable().optional(),
  },
  output: InventoryAdjustmentRef,
  resolve: (ctx, input) => adjustStock(ctx, input),
  audit: {
    event: 'inventory.adjust',
    entityType: 'inventory',
    entityId: (input) => input.entityId,
    after: (result) => ({ level: levelPayload(result.level), movement: { type: result.movement.type, quantity: result.movement.quantity, id: result.movement.id } }),
  },
});

defineOperation({
  name: 'inventoryMovements',
  kind: 'query',
  summary: 'The movement ledger, newest first',
  description: 'Filters: entityId, variantId, warehouseId, type.',
  rest: { method: 'GET', path: '/inventory/movements' },
  access: READ,
  input: {
    entityId: entityId.optional(),
    variantId: z.guid().optional(),
    warehouseId: z.guid().optional(),
    type: z.enum(ADJUSTMENT_TYPE_NAMES).optional().describe('Only movements of this adjustment type'),
    ...pageInput(20, 100),
  },
  output: pageOf('InventoryMovement', InventoryMovementRef),
  paginated: true,
  resolve: (ctx, input) => listMovements(ctx, input),
});

// ── availability ──

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseEntityIds(raw: string): string[] {
  const ids = [
    ...new Set(
      raw
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  const issues = ids.flatMap((value, index) => (UUID_RE.test(value) ? [] : [{ field: `entityIds.${index}`, message: `not a UUID: ${value.slice(0, 60)}` }]));
  if (!ids.length) issues.push({ field: 'entityIds', message: 'needs at least one entity id' });
  if (ids.length > MAX_CHECK_IDS) issues.push({ field: 'entityIds', message: `at most ${MAX_CHECK_IDS} ids per call` });
  if (issues.length) throw validationFailed(issues);
  return ids;
}

defineOperation({
  name: 'inventoryAvailability',
  kind: 'query',
  summary: 'Availability of entities: in total, per variant, per warehouse and per level',
  description: `Query \`entityIds\`: comma-separated UUIDs, at most ${MAX_CHECK_IDS}. Answers in the order asked; an id without stock is reported with zeros and tracked: false. One SQL statement.`,
  rest: { method: 'GET', path: '/inventory/check' },
  access: READ,
  input: {
    entityIds: z
      .string()
      .min(1)
      .max(MAX_CHECK_IDS * 40)
      .describe('Comma-separated entity UUIDs'),
  },
  output: [EntityAvailabilityRef],
  resolve: (ctx, input) => checkAvailability(ctx, parseEntityIds(input.entityIds)),
});

// ── reservations ──

defineOperation({
  name: 'inventoryReserve',
  kind: 'mutation',
  summary: 'Reserve stock for a cart or an order',
  description:
    'Holds `quantity` units in one warehouse: the one named, else the default warehouse if it has enough, else the one with the most ' +
    'available. More than is available is 409 CONFLICT, and concurrent reservations never oversell.',
  rest: { method: 'POST', path: '/inventory/reserve', status: 201 },
  access: ADJUST,
  input: { entityId, variantId, warehouseId, quantity, reference },
  output: InventoryReservationResultRef,
  resolve: (ctx, input) => reserveStock(ctx, input),
  audit: {
    event: 'inventory.reserve',
    entityType: 'inventory',
    entityId: (input) => input.entityId,
    after: (r) => ({ reservationId: r.id, warehouseId: r.warehouseId, quantity: r.quantity, reference: r.reference, level: levelPayload(r.level) }),
  },
});

defineOperation({
  name: 'inventoryRelease',
  kind: 'mutation',
  summary: 'Release reserved stock',
  description:
    'Gives `quantity` reserved units back, oldest reservation first, among the reservations matching the entity, variant and the ' +
    'optional warehouseId, reference and reservationId. Releasing more than they hold is 409.',
  rest: { method: 'POST', path: '/inventory/release' },
  access: ADJUST,
  input: { entityId, variantId, warehouseId, quantity, reference, reservationId: z.guid().nullable().optional().describe('Release from this reservation only') },
  output: InventoryReleaseRef,
  resolve: (ctx, input) => releaseStock(ctx, input),
  audit: {
    event: 'inventory.release',
    entityType: 'inventory',
    entityId: (input) => input.entityId,
    after: (r) => ({ quantity: r.quantity, reservations: r.reservations.map((x) => ({ id: x.id, outstanding: x.outstanding })), levels: r.levels.map(levelPayload) }),
  },
});
