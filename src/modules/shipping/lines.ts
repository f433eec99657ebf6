// The order's shipping lines (issue 25): what it pays for shipping, copied from the chosen method
// at checkout. Order.shippingLines (GraphQL and REST) reads them through a batch loader: one
// statement per page of orders; checkout's answer carries the lines it wrote and costs nothing.
import { builder } from '../../graphql/builder.js';
import { batchLoader, groupBy } from '../../graphql/loaders.js';
import type { RequestContext } from '../../context.js';
import { OrderRef } from '../orders/types.js';
import { PickupLocationRef } from './types.js';
import { shippingLineView, type ShippingLineView } from './line-view.js';

export { shippingLineView, type ShippingLineView };

export async function loadShippingLines(ctx: RequestContext, orderId: string): Promise<ShippingLineView[]> {
  return batchLoader<ShippingLineView[]>(
    ctx,
    'orders.shippingLines',
    async (ids) => {
      const rows = await ctx.db.orderShippingLine.findMany({
        where: { organizationId: ctx.organization.id, orderId: { in: ids } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return groupBy(rows, (r) => r.orderId, shippingLineView);
    },
    () => [],
  ).load(orderId);
}

export const OrderShippingLineRef = builder.objectRef<ShippingLineView>('OrderShippingLine').implement({
  description: 'What the order pays for shipping with one method: amount before tax, its tax, the estimate; pickup orders name the location.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    methodId: t.expose('methodId', { type: 'UUID', nullable: true, description: 'The method (null once deleted)' }),
    code: t.exposeString('code'),
    name: t.exposeString('name'),
    amount: t.field({
      type: 'MinorUnits',
      description: "As charged: before tax, or tax included when the order's prices include tax (pricing.pricesIncludeTax)",
      resolve: (l) => l.amount,
    }),
    taxRateBps: t.exposeInt('taxRateBps', { description: 'The rate the shipping charge was taxed at, basis points' }),
    taxTotal: t.expose('taxTotal', { type: 'MinorUnits' }),
    minDays: t.exposeInt('minDays', { nullable: true, description: 'Delivery estimate at checkout, fewest days' }),
    maxDays: t.exposeInt('maxDays', { nullable: true, description: 'Delivery estimate at checkout, most days' }),
    pickupLocation: t.expose('pickupLocation', { type: PickupLocationRef, nullable: true, description: 'Pickup orders: where the order is collected' }),
    refundedAmount: t.field({
      type: 'MinorUnits',
      description: 'Shipping refunded so far, tax included (orderRefundCreate with shipping: true)',
      resolve: (l) => l.refundedAmount,
    }),
  }),
});

builder.objectField(OrderRef, 'shippingLines', (t) =>
  t.field({
    type: [OrderShippingLineRef],
    description: "The shipping methods the order pays for (empty under the store's legacy flat shipping rule)",
    resolve: (order, _args, ctx) => order.shippingLines ?? loadShippingLines(ctx, order.id),
  }),
);
