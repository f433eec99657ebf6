// What makes a catalog entity a gift-card product: its `type` is `giftCard` (the spec's way to say
// what a thing is, as `digitalDownload` says a download; staff set it through the entity's create
// and update). Such lines need no stock and no shipping, and a paid order line issues one card per
// unit (purchase.ts). No imports: checkout, shipping, carts and orders read this file without
// pulling in the gift-card service.

export const GIFT_CARD_ENTITY_TYPE = 'giftCard';

export function isGiftCardType(entityType: string | null | undefined): boolean {
  return entityType === GIFT_CARD_ENTITY_TYPE;
}

/**
 * Who receives the cards a gift-card line issues, as a storefront names it on the cart line
 * (Shopify's "send to recipient": email, name, message). Absent: the order's customer email.
 */
export interface GiftCardRecipient {
  email: string;
  name?: string | null;
  message?: string | null;
}

/** The stored JSON (cart_items / order_lines.gift_card_recipient) as a recipient, or null. */
export function recipientOf(value: unknown): GiftCardRecipient | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.email !== 'string' || !v.email) return null;
  return { email: v.email, name: typeof v.name === 'string' ? v.name : null, message: typeof v.message === 'string' ? v.message : null };
}
