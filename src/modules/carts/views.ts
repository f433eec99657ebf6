// Cart shapes for GraphQL and REST.
import type { Cart, CartItem } from '../../generated/prisma/client.js';
import { toNumber } from '../orders/shared.js';
import { recipientOf, type GiftCardRecipient } from '../gift-cards/product.js';

export interface CartItemView {
  itemId: string;
  entityId: string;
  variantId: string | null;
  quantity: number;
  unitPriceSnapshot: number;
  /** unitPriceSnapshot × quantity, for display; checkout re-prices. */
  lineTotalSnapshot: number;
  /** A gift-card line's recipient (null: the order email). */
  giftCardRecipient: GiftCardRecipient | null;
  createdAt: Date;
  updatedAt: Date;
  /** The cart's currency (not a field of its own: the graph prices the item in it). */
  cartCurrency?: string;
}

export interface CartView {
  id: string;
  currency: string;
  customerId: string | null;
  status: string;
  items: CartItemView[];
  /** Sum of the items' snapshots, for display. */
  subtotalSnapshot: number;
  /** Only in the answer that created a guest cart: send it as x-cart-token to reach the cart again. */
  cartToken: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type CartRow = Cart & { items: CartItem[] };

export const CART_INCLUDE = { items: { orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }] } };

export function cartItemView(row: CartItem): CartItemView {
  const unit = toNumber(row.unitPriceSnapshot);
  return {
    itemId: row.id,
    entityId: row.entityId,
    variantId: row.variantId,
    quantity: row.quantity,
    unitPriceSnapshot: unit,
    lineTotalSnapshot: unit * row.quantity,
    giftCardRecipient: recipientOf(row.giftCardRecipient),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function cartView(row: CartRow, cartToken: string | null = null): CartView {
  const items = row.items.map((item) => ({ ...cartItemView(item), cartCurrency: row.currency }));
  return {
    id: row.id,
    currency: row.currency,
    customerId: row.customerId,
    status: row.status,
    items,
    subtotalSnapshot: items.reduce((sum, item) => sum + item.lineTotalSnapshot, 0),
    cartToken,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
