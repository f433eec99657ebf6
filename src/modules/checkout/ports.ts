// What checkout (and order cancellation and fulfillment) need from the inventory, pricing,
// promotions and tax modules: the smallest interface, so the order pipeline reads the same
// whichever module implements each part (wiring.ts maps it onto ctx.services). Every call takes a
// ServiceContext whose db is the transaction it runs in, so a failed checkout rolls back
// reservations and promotion uses with everything else.
import type { ServiceContext } from '../../db/transaction.js';
import type { TaxDestination } from '../tax/destination.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { PriceInputsRow } from '../pricing/resolver.js';

export interface PriceQuery {
  entityId: string;
  variantId: string | null;
  currency: string;
  customerGroupIds: string[];
  quantity: number;
}

export interface PricePort {
  /** The best unit price (minor units) per query, or null when the item has no price in that currency. */
  resolve(ctx: ServiceContext, queries: PriceQuery[]): Promise<Array<number | null>>;
  /**
   * resolve in two halves, for a caller that reads what pricing needs in a statement it sends
   * anyway (checkout's cart lock): the select-list over SQL expressions for the currency, the
   * groups (text[]) and the entity ids (uuid[]), and the same answer as resolve from its row.
   */
  inputsSql(organizationId: string, on: { currency: Prisma.Sql; groups: Prisma.Sql; entityIds: Prisma.Sql }, at: Date): Prisma.Sql;
  fromInputs(row: PriceInputsRow, queries: PriceQuery[], at: Date): Array<number | null>;
}

export interface TaxQuery {
  entityId: string;
  variantId: string | null;
  entityTaxClassId: string | null;
  variantTaxClassId: string | null;
  /** Where the line is taxed (tax zones); none: the class's own rate. */
  destination?: TaxDestination | null;
}

export interface TaxPort {
  /** Per line, in the spec's order: variant class, entity class, the organization's default class, then 0. */
  resolve(ctx: ServiceContext, lines: TaxQuery[]): Promise<Array<{ taxClassId: string | null; rateBps: number }>>;
}

export interface PromotionLine {
  entityId: string;
  entityType: string;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
}

export interface RedeemInput {
  codes: string[];
  currency: string;
  subtotal: number;
  lineItems: PromotionLine[];
  customerId: string | null;
  customerGroupIds: string[];
  /** The order the uses are recorded against. */
  orderId: string;
}

export interface Redemption {
  /** Order-level discount in minor units (≤ subtotal). */
  discountTotal: number;
  /** Discount attributed to single lines (percentage_off_item, buy_x_get_y), by line index; the rest is spread by value. */
  lineDiscounts?: Array<{ index: number; amount: number }>;
  freeShipping: boolean;
  applied: Array<{ code: string; promotionId: string; type: string; amount: number; redemptionId: string }>;
}

export interface PromotionPort {
  /**
   * Validates every code against the priced order and records one use of each inside `tx`;
   * usage limits hold under concurrency. A refused code throws an AppError whose message says why.
   */
  redeem(ctx: ServiceContext, input: RedeemInput): Promise<Redemption>;
  /** Gives the uses back (a cancelled order). */
  release(ctx: ServiceContext, redemptionIds: string[]): Promise<void>;
}

export interface ReserveLine {
  entityId: string;
  variantId: string | null;
  quantity: number;
  /** What the reservation is for, e.g. `order:<id>`. */
  reference: string;
  /** Pickup orders (issue 25): only this warehouse may serve the line. */
  warehouseId?: string | null;
}

export interface StockReservation {
  warehouseId: string;
  quantity: number;
}

export interface StockMove {
  entityId: string;
  variantId: string | null;
  warehouseId: string;
  quantity: number;
  reference: string;
}

export interface InventoryPort {
  /**
   * Reserves every line or none: a line that cannot be covered throws an AppError naming it.
   * Never oversells under concurrency. Returns, per line, where its units are reserved.
   */
  reserve(ctx: ServiceContext, lines: ReserveLine[]): Promise<StockReservation[][]>;
  /** Gives reserved units back (a cancelled order). */
  release(ctx: ServiceContext, moves: StockMove[]): Promise<void>;
  /** Reserved units left the building (a fulfillment): reserved and on hand both go down. */
  commit(ctx: ServiceContext, moves: StockMove[]): Promise<void>;
}

export interface CheckoutPorts {
  prices: PricePort;
  taxes: TaxPort;
  promotions: PromotionPort;
  inventory: InventoryPort;
}
