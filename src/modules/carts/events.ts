// Payload of cart.afterAddItem (see events/registry.ts).
export interface CartItemPayload {
  itemId: string;
  entityId: string;
  variantId: string | null;
  quantity: number;
  unitPriceSnapshot: number;
  lineTotalSnapshot: number;
  createdAt: string;
  updatedAt: string;
}

declare module '../../events/registry.js' {
  interface EventPayloads {
    'cart.afterAddItem': { cart: { id: string; currency: string; customerId: string | null }; item: CartItemPayload; addedQuantity: number };
  }
}

export {};
