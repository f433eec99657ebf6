// What other modules use from inventory: reserve, release and consume (cart, checkout, order
// cancellation and fulfilment), adjust, and availability. ctx.services.inventory is
// `inventoryService`; every function takes a ServiceContext whose db may be the caller's
// transaction client, so stock changes commit with the caller's order.
import { adjustStock } from './adjust.service.js';
import { checkAvailability } from './availability.js';
import { consumeReservation, releaseStock, reserveMany, reserveStock } from './reservations.service.js';
import { ensureDefaultWarehouse } from './warehouses.service.js';
import { reserveLines } from './reserve-lines.js';

export const inventoryService = {
  reserve: reserveStock,
  reserveMany,
  reserveLines,
  release: releaseStock,
  consume: consumeReservation,
  adjust: adjustStock,
  check: checkAvailability,
  ensureDefaultWarehouse,
};
export type InventoryService = typeof inventoryService;
export type { ReserveInput, ReservationResult, SettleInput, SettleResult } from './reservations.service.js';
export type { AdjustInput, AdjustResult } from './adjust.service.js';
export type { EntityAvailability } from './availability.js';

// ctx.services.inventory: the core's Services registry (src/services.ts) is filled by each module, by declaration merging.
declare module '../../services.js' {
  interface Services {
    inventory: InventoryService;
  }
}
