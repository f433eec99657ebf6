// Cart shipping operations: GET /carts/:id/shipping-options, PUT /carts/:id/shipping, and the
// Cart.shippingOptions field. Access as the other cart routes (guest carts need x-cart-token).
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { AddressRef, type AddressView } from '../../graphql/address.js';
import { defineOperation } from '../../graphql/operation.js';
import { graphOnly } from '../../graphql/loaders.js';
import { CartRef } from '../carts/schema.js';
import { CART_TOKEN_HEADER } from '../carts/access.js';
import { address } from '../checkout/schema.js';
import { ShippingMethodKindEnum } from './schema.js';
import { cartShippingOptions, setCartShipping, type CartShippingView } from './cart.js';
import type { ShippingOption } from './quote.js';
import { PickupLocationRef } from './types.js';

export const ShippingOptionRef = builder.objectRef<ShippingOption>('ShippingOption').implement({
  description:
    'A shipping method the cart may use, priced as checkout will charge it: the amount, its tax (on top, extracted when prices include tax, 0 for an exempt customer group), and the delivery estimate.',
  fields: (t) => ({
    methodId: t.expose('methodId', { type: 'UUID' }),
    code: t.exposeString('code'),
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: ShippingMethodKindEnum, description: 'delivery or pickup' }),
    currency: t.exposeString('currency'),
    amount: t.field({
      type: 'MinorUnits',
      description: 'As charged: before tax, or tax included when the store lists prices with tax (general.pricesIncludeTax)',
      resolve: (o) => o.amount,
    }),
    taxRateBps: t.exposeInt('taxRateBps', { description: "The rate of the method's tax class (else the default class)" }),
    taxTotal: t.expose('taxTotal', { type: 'MinorUnits' }),
    minDays: t.exposeInt('minDays', { nullable: true, description: 'Delivery estimate, fewest days' }),
    maxDays: t.exposeInt('maxDays', { nullable: true, description: 'Delivery estimate, most days' }),
    pickupLocation: t.expose('pickupLocation', { type: PickupLocationRef, nullable: true, description: 'Pickup methods: where the order is collected' }),
  }),
});

const CartShippingRef = builder.objectRef<CartShippingView>('CartShipping').implement({
  description: "The cart's shipping address and chosen method (priced now; checkout re-prices).",
  fields: (t) => ({
    cartId: t.expose('cartId', { type: 'UUID' }),
    address: t.field({ type: AddressRef, nullable: true, resolve: (s) => s.address as AddressView | null }),
    method: t.expose('method', { type: ShippingOptionRef, nullable: true, description: 'The chosen method, priced now; null when none is chosen' }),
  }),
});

const ACCESS = `Same access as GET /carts/:id: a guest cart needs its ${CART_TOKEN_HEADER} header; a customer reaches only their own carts.`;
const destination = {
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US')
    .optional()
    .describe("Destination country; default the cart's shipping address"),
  state: z.string().max(100).optional().describe('State or region (CA or US-CA)'),
  postalCode: z.string().max(20).optional(),
};

defineOperation({
  name: 'cartShippingOptions',
  kind: 'query',
  summary: 'The shipping options of a cart',
  description:
    "Active methods whose zone contains the address (the one given, else the cart's from PUT /carts/:id/shipping; neither is 422 naming " +
    'country) and whose rules the cart meets (subtotal, weight, customer groups), with price, tax and estimate, cheapest first. ' +
    `A cart of only digital goods has none. ${ACCESS}`,
  rest: { method: 'GET', path: '/carts/:id/shipping-options' },
  access: 'public',
  input: { id: z.guid().describe('Cart UUID'), ...destination },
  output: [ShippingOptionRef],
  resolve: (ctx, { id, ...to }) => cartShippingOptions(ctx, id, to),
});

defineOperation({
  name: 'cartShippingSet',
  kind: 'mutation',
  summary: "Set a cart's shipping address and method",
  description: `methodId must be one of the cart's shipping options for that address (422 naming methodId otherwise); checkout uses both unless it is sent others. ${ACCESS}`,
  rest: { method: 'PUT', path: '/carts/:id/shipping' },
  access: 'public',
  input: { id: z.guid().describe('Cart UUID'), address, methodId: z.guid().nullable().optional().describe("A shipping option's methodId; null clears the choice") },
  output: CartShippingRef,
  resolve: (ctx, { id, ...input }) => setCartShipping(ctx, id, input),
});

// Graph only: REST cart answers stay as they were (and cost no quote); REST has GET /carts/:id/shipping-options.
graphOnly('Cart', 'shippingOptions');
builder.objectField(CartRef, 'shippingOptions', (t) =>
  t.field({
    type: [ShippingOptionRef],
    nullable: true,
    description: "The cart's shipping options for its shipping address (PUT /carts/:id/shipping), or for the country given; null while neither is known.",
    args: { country: t.arg.string({ required: false }), state: t.arg.string({ required: false }), postalCode: t.arg.string({ required: false }) },
    resolve: async (cart, args, ctx) => {
      try {
        return await cartShippingOptions(ctx, cart.id, { country: args.country ?? null, state: args.state ?? null, postalCode: args.postalCode ?? null });
      } catch (error) {
        if ((error as { code?: string }).code === 'VALIDATION_FAILED') return null;
        throw error;
      }
    },
  }),
);
