// The shape a return is handed out in (GraphQL type, REST body, event payload) and the row → view
// mapper. Amounts are numbers of minor units of the order's currency.
import type { Prisma } from '../../generated/prisma/client.js';
import { toNumber } from '../orders/shared.js';

/** One include for every read: the list costs the same statements whatever its page size. */
export const RETURN_INCLUDE = {
  lines: { include: { line: { select: { sku: true, title: true, entityId: true, variantId: true } } }, orderBy: { id: 'asc' } },
  order: { select: { number: true, currency: true, customerId: true } },
  exchangeLines: { orderBy: { position: 'asc' } },
} as const satisfies Prisma.OrderReturnInclude;

export type ReturnRow = Prisma.OrderReturnGetPayload<{ include: typeof RETURN_INCLUDE }>;

export interface ReturnLineView {
  id: string;
  lineItemId: string;
  entityId: string;
  variantId: string | null;
  sku: string;
  title: string;
  quantity: number;
  disposition: string | null;
  warehouseId: string | null;
}

/** One outbound line of an exchange. */
export interface ExchangeLineView {
  id: string;
  entityId: string;
  variantId: string | null;
  sku: string;
  title: string;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
  /** The line's share of a discount (none applies to an exchange today: 0). */
  discountTotal: number;
  taxRateBps: number;
  /** Tax on totalPrice − discountTotal: added on top in a tax-exclusive store, contained in a tax-inclusive one. */
  taxTotal: number;
  /** Units still held for it (0 once released). */
  reservedQuantity: number;
}

export interface ReturnView {
  id: string;
  orderId: string;
  orderNumber: string;
  customerId: string | null;
  status: string;
  reasonCode: string;
  customerNote: string | null;
  staffNote: string | null;
  requestedBy: string | null;
  requestedVia: string;
  currency: string;
  lines: ReturnLineView[];
  refundMethod: string | null;
  refundId: string | null;
  refundAmount: number;
  approvedAt: Date | null;
  rejectedAt: Date | null;
  receivedAt: Date | null;
  refundedAt: Date | null;
  closedAt: Date | null;
  cancelledAt: Date | null;
  isExchange: boolean;
  exchangeLines: ExchangeLineView[];
  exchangeOrderId: string | null;
  exchangeTotal: number;
  /** Σ of the outbound lines' tax (inside exchangeTotal either way). */
  exchangeTaxTotal: number;
  exchangeCredit: number;
  exchangeDifference: number;
  exchangePaymentId: string | null;
  exchangedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function returnView(row: ReturnRow): ReturnView {
  return {
    id: row.id,
    orderId: row.orderId,
    orderNumber: row.order.number,
    customerId: row.order.customerId,
    status: row.status,
    reasonCode: row.reasonCode,
    customerNote: row.customerNote,
    staffNote: row.staffNote,
    requestedBy: row.requestedBy,
    requestedVia: row.requestedVia,
    currency: row.order.currency,
    lines: row.lines.map((l) => ({
      id: l.id,
      lineItemId: l.lineId,
      entityId: l.line.entityId,
      variantId: l.line.variantId,
      sku: l.line.sku,
      title: l.line.title,
      quantity: l.quantity,
      disposition: l.disposition,
      warehouseId: l.warehouseId,
    })),
    refundMethod: row.refundMethod,
    refundId: row.refundId,
    refundAmount: toNumber(row.refundAmount),
    approvedAt: row.approvedAt,
    rejectedAt: row.rejectedAt,
    receivedAt: row.receivedAt,
    refundedAt: row.refundedAt,
    closedAt: row.closedAt,
    cancelledAt: row.cancelledAt,
    isExchange: row.exchangeOrderId !== null,
    exchangeLines: row.exchangeLines.map((l) => ({
      id: l.id,
      entityId: l.entityId,
      variantId: l.variantId,
      sku: l.sku,
      title: l.title,
      quantity: l.quantity,
      unitPrice: toNumber(l.unitPrice),
      totalPrice: toNumber(l.totalPrice),
      discountTotal: toNumber(l.discountTotal),
      taxRateBps: l.taxRateBps,
      taxTotal: toNumber(l.taxTotal),
      reservedQuantity: ((l.reservations ?? []) as Array<{ quantity: number }>).reduce((sum, r) => sum + r.quantity, 0),
    })),
    // The replacement order exists once the exchange settled; before, its id is only reserved.
    exchangeOrderId: row.exchangeOrderId,
    exchangeTotal: toNumber(row.exchangeTotal),
    exchangeTaxTotal: row.exchangeLines.reduce((sum, l) => sum + toNumber(l.taxTotal), 0),
    exchangeCredit: toNumber(row.exchangeCredit),
    exchangeDifference: toNumber(row.exchangeDifference),
    exchangePaymentId: row.exchangePaymentId,
    exchangedAt: row.exchangedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

type Iso<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };
export type ReturnPayload = Iso<ReturnView>;

/** The view with its dates as ISO strings, for event payloads (JSON). */
export function returnPayload(view: ReturnView): ReturnPayload {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    ...view,
    approvedAt: iso(view.approvedAt),
    rejectedAt: iso(view.rejectedAt),
    receivedAt: iso(view.receivedAt),
    refundedAt: iso(view.refundedAt),
    closedAt: iso(view.closedAt),
    cancelledAt: iso(view.cancelledAt),
    exchangedAt: iso(view.exchangedAt),
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}
