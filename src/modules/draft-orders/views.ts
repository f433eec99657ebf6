// What a draft order looks like to callers (REST bodies and GraphQL objects are the same values).
import type { DraftOrder } from '../../generated/prisma/client.js';
import { recipientOf, type GiftCardRecipient } from '../gift-cards/product.js';

export interface DraftLine {
  entityId: string;
  variantId: string | null;
  quantity: number;
  /** A custom unit price, minor units; null: the price list's price when the draft completes. */
  unitPrice: number | null;
  /** Why the custom price (required with unitPrice). */
  priceReason: string | null;
  /** A gift-card line's recipient, copied to the order line as checkout copies a cart item's (null: the order email). */
  giftCardRecipient?: GiftCardRecipient | null;
}

export interface DraftView {
  id: string;
  status: 'open' | 'sent' | 'completed';
  customerId: string | null;
  email: string | null;
  currency: string;
  lines: DraftLine[];
  discount: { amount: number; reason: string | null };
  shippingAddress: Record<string, unknown> | null;
  shippingMethodId: string | null;
  note: string | null;
  orderId: string | null;
  createdBy: { id: string | null; kind: string };
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** Where and when the payment link was last sent, and until when it works (null once the draft is edited). */
  sentTo: string | null;
  sentAt: Date | null;
  linkExpiresAt: Date | null;
}

export function draftView(row: DraftOrder): DraftView {
  return {
    id: row.id,
    status: row.status as DraftView['status'],
    customerId: row.customerId,
    email: row.email,
    currency: row.currency,
    lines: (row.lines as unknown as DraftLine[]).map((l) => ({ ...l, giftCardRecipient: recipientOf(l.giftCardRecipient) })),
    discount: { amount: Number(row.discountAmount), reason: row.discountReason },
    shippingAddress: (row.shippingAddress as Record<string, unknown> | null) ?? null,
    shippingMethodId: row.shippingMethodId,
    note: row.note,
    orderId: row.orderId,
    createdBy: { id: row.createdById, kind: row.createdByKind },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    completedAt: row.completedAt,
    sentTo: row.sentTo,
    sentAt: row.sentAt,
    linkExpiresAt: row.linkExpiresAt,
  };
}
