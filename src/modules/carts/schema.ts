// Cart operations: create, get, add item, change quantity, remove item.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { money } from '../../graphql/zod-args.js';
import { CART_TOKEN_HEADER } from './access.js';
import { giftCardRecipientInput } from '../gift-cards/recipient-input.js';
import { GiftCardRecipientRef } from '../gift-cards/recipient-graph.js';
import { addCartItem, createCart, getCart, MAX_ITEM_QUANTITY, removeCartItem, updateCartItem } from './service.js';
import type { CartItemView, CartView } from './views.js';
import { defineEnum } from '../../graphql/enums.js';
const CartStatusEnum = defineEnum('CartStatus', ['open', 'converted'] as const, 'open, or converted once checked out (then it cannot change).');

export const CartItemRef = builder.objectRef<CartItemView>('CartItem').implement({
  fields: (t) => ({
    itemId: t.expose('itemId', { type: 'UUID' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    variantId: t.expose('variantId', { type: 'UUID', nullable: true }),
    quantity: t.exposeInt('quantity'),
    unitPriceSnapshot: t.expose('unitPriceSnapshot', { type: 'MinorUnits', description: 'The resolved price when the item was added (checkout re-prices)' }),
    lineTotalSnapshot: t.expose('lineTotalSnapshot', { type: 'MinorUnits' }),
    giftCardRecipient: t.expose('giftCardRecipient', { type: GiftCardRecipientRef, nullable: true, description: 'Who receives the gift cards of a gift-card line' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const CartRef = builder.objectRef<CartView>('Cart').implement({
  description: `A shopping cart. A guest cart (no customer) is reachable only with the cartToken returned at its creation, sent as the ${CART_TOKEN_HEADER} header.`,
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    currency: t.exposeString('currency'),
    customerId: t.expose('customerId', {
      type: 'UUID',
      nullable: true,
      description: "The customer (their account's user id, as Customer.id); null for a guest cart",
    }),
    status: t.field({ type: CartStatusEnum, resolve: (c) => c.status as never }),
    items: t.expose('items', { type: [CartItemRef] }),
    subtotalSnapshot: t.expose('subtotalSnapshot', { type: 'MinorUnits' }),
    cartToken: t.exposeString('cartToken', { nullable: true, description: `Only in the answer that created a guest cart: keep it and send it as ${CART_TOKEN_HEADER}` }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ACCESS =
  `Anonymous shoppers use guest carts; signed-in callers need cart:create, cart:read or cart:update. A customer reaches only their own carts; ` +
  `a guest cart needs its ${CART_TOKEN_HEADER} header; staff with orders:create:on-behalf reach every cart. An unreachable cart is 404.`;

const cartId = z.guid().describe('Cart UUID');
const quantity = z.number().int().positive().max(MAX_ITEM_QUANTITY).describe(`A positive whole number, at most ${MAX_ITEM_QUANTITY}`);

defineOperation({
  name: 'cartCreate',
  kind: 'mutation',
  summary: 'Create a cart',
  description: `Without a customer the cart is a guest cart and the answer carries its cartToken (shown once). A customer's carts are theirs; staff with orders:create:on-behalf may name a customerId. ${ACCESS}`,
  rest: { method: 'POST', path: '/carts', status: 201 },
  access: 'public',
  input: {
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
    customerId: z.guid().optional().describe("The customer the cart is for (their account's user id, as Customer.id)"),
  },
  output: CartRef,
  resolve: (ctx, input) => createCart(ctx, input),
});

defineOperation({
  name: 'cart',
  kind: 'query',
  summary: 'Get a cart with its line items',
  description: ACCESS,
  rest: { method: 'GET', path: '/carts/:id' },
  access: 'public',
  input: { id: cartId },
  output: CartRef,
  resolve: (ctx, input) => getCart(ctx, input.id),
});

defineOperation({
  name: 'cartItemAdd',
  kind: 'mutation',
  summary: 'Add an item to a cart',
  description:
    'Only active catalog entities can be added (an entity with variants is added as one of them). The unitPriceSnapshot stored is the ' +
    'resolved price when one exists, otherwise the one sent. Adding an item already in the cart adds to its quantity. A checked-out cart ' +
    `is 409. A gift-card product (entity type giftCard) may name a giftCardRecipient (any other item: 422); adding it again replaces the recipient. Emits cart.afterAddItem. ${ACCESS}`,
  rest: { method: 'POST', path: '/carts/:id/items', status: 201 },
  access: 'public',
  input: {
    id: cartId,
    entityId: z.guid(),
    variantId: z.guid().optional(),
    quantity,
    unitPriceSnapshot: money().optional().describe('Unit price shown to the shopper, minor units; used only when no price resolves'),
    giftCardRecipient: giftCardRecipientInput.optional(),
  },
  output: CartRef,
  resolve: (ctx, input) => addCartItem(ctx, input.id, input),
});

defineOperation({
  name: 'cartItemUpdate',
  kind: 'mutation',
  summary: "Change a cart item's quantity",
  description: ACCESS,
  rest: { method: 'PATCH', path: '/carts/:id/items/:itemId' },
  access: 'public',
  input: { id: cartId, itemId: z.guid(), quantity },
  output: CartRef,
  resolve: (ctx, input) => updateCartItem(ctx, input.id, input.itemId, input),
});

defineOperation({
  name: 'cartItemRemove',
  kind: 'mutation',
  summary: 'Remove an item from a cart',
  description: ACCESS,
  rest: { method: 'DELETE', path: '/carts/:id/items/:itemId' },
  access: 'public',
  input: { id: cartId, itemId: z.guid() },
  output: CartRef,
  resolve: (ctx, input) => removeCartItem(ctx, input.id, input.itemId),
});
