// An order shipping line as the API shows it (no GraphQL here: checkout builds it too).
import type { OrderShippingLine } from '../../generated/prisma/client.js';
import type { PickupLocation } from './quote.js';

export interface ShippingLineView {
  id: string;
  methodId: string | null;
  code: string;
  name: string;
  amount: number;
  taxRateBps: number;
  taxTotal: number;
  minDays: number | null;
  maxDays: number | null;
  pickupLocation: PickupLocation | null;
  refundedAmount: number;
}

export function shippingLineView(row: OrderShippingLine): ShippingLineView {
  return {
    id: row.id,
    methodId: row.methodId,
    code: row.code,
    name: row.name,
    amount: Number(row.amount),
    taxRateBps: row.taxRateBps,
    taxTotal: Number(row.taxTotal),
    minDays: row.minDays,
    maxDays: row.maxDays,
    pickupLocation: (row.pickupLocation as unknown as PickupLocation | null) ?? null,
    refundedAmount: Number(row.refundedAmount),
  };
}
