// Gift-card products on the order: OrderLine.giftCardRecipient and OrderLine.giftCards (the cards
// the line issued, masked). The cards resolve through a batch loader, and only for gift-card
// lines, so an order without them costs no statement.
import { builder } from '../../graphql/builder.js';
import { batchLoader, groupBy } from '../../graphql/loaders.js';
import { OrderLineRef } from '../orders/types.js';
import type { OrderLineView } from '../orders/views.js';
import { isGiftCardType } from './product.js';
import { GiftCardRecipientRef } from './recipient-graph.js';
import { GiftCardRef } from './schema.js';
import { giftCardView, type GiftCardView } from './service.js';

builder.objectField(OrderLineRef, 'giftCardRecipient', (t) =>
  t.field({
    type: GiftCardRecipientRef,
    nullable: true,
    description: 'Who receives the gift cards of a gift-card line (null: the order email)',
    resolve: (line: OrderLineView) => line.giftCardRecipient ?? null,
  }),
);

builder.objectField(OrderLineRef, 'giftCards', (t) =>
  t.field({
    type: [GiftCardRef],
    description: 'The gift cards this line issued once the order was paid (gift-card products: one per unit; masked codes), oldest first; empty for other lines',
    resolve: (line: OrderLineView, _args, ctx) => {
      if (!isGiftCardType(line.entityType)) return [];
      return batchLoader<GiftCardView[]>(
        ctx,
        'orders.lines.giftCards',
        async (ids) => {
          const rows = await ctx.db.giftCard.findMany({
            where: { organizationId: ctx.organization.id, sourceOrderLineId: { in: ids } },
            orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          });
          // biome-ignore lint/style/noNonNullAssertion: the query selects sourceOrderLineId in ids, so it is never null here
          return groupBy(rows, (r) => r.sourceOrderLineId!, giftCardView);
        },
        () => [],
      ).load(line.lineItemId);
    },
  }),
);
