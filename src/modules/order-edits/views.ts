// What an order edit looks like to callers (REST bodies and GraphQL objects are the same values).
import type { OrderEdit } from '../../generated/prisma/client.js';
import type { EditOperations } from './plan.js';
import type { EditStatus, PaymentAction } from './status.js';

export interface EditLineView {
  /** null for a line the edit adds, until it is confirmed. */
  lineItemId: string | null;
  entityId: string;
  variantId: string | null;
  sku: string;
  title: string;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
  discountTotal: number;
  taxTotal: number;
}

export interface EditSnapshot {
  lineItems: EditLineView[];
  subtotal: number;
  discountTotal: number;
  taxTotal: number;
  shippingTotal: number;
  grandTotal: number;
  shippingAddress: Record<string, unknown> | null;
}

export interface EditView {
  id: string;
  orderId: string;
  status: EditStatus;
  operations: EditOperations;
  before: EditSnapshot;
  after: EditSnapshot;
  difference: number;
  paymentAction: PaymentAction | null;
  refundId: string | null;
  reason: string | null;
  createdBy: { id: string | null; kind: string };
  createdAt: Date;
  decidedBy: { id: string | null; kind: string } | null;
  decidedAt: Date | null;
}

export function editView(row: OrderEdit): EditView {
  return {
    id: row.id,
    orderId: row.orderId,
    status: row.status as EditStatus,
    operations: row.operations as unknown as EditOperations,
    before: row.before as unknown as EditSnapshot,
    after: row.after as unknown as EditSnapshot,
    difference: Number(row.difference),
    paymentAction: (row.paymentAction as PaymentAction | null) ?? null,
    refundId: row.refundId,
    reason: row.reason,
    createdBy: { id: row.createdById, kind: row.createdByKind },
    createdAt: row.createdAt,
    decidedBy: row.decidedByKind ? { id: row.decidedById, kind: row.decidedByKind } : null,
    decidedAt: row.decidedAt,
  };
}

export type EditPayload = Omit<EditView, 'createdAt' | 'decidedAt'> & { createdAt: string; decidedAt: string | null };

export function editPayload(view: EditView): EditPayload {
  return { ...view, createdAt: view.createdAt.toISOString(), decidedAt: view.decidedAt?.toISOString() ?? null };
}

declare module '../../events/registry.js' {
  interface EventPayloads {
    'orders.edit': { action: 'created' | 'confirmed' | 'cancelled'; edit: EditPayload };
  }
}
