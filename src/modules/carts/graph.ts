// Cart items in the graph: the entity and variant in the cart and what they cost now (the
// snapshot is what the shopper saw when adding; checkout charges the current price). Batched:
// one statement per relation for all the items of a response.
import { builder } from '../../graphql/builder.js';
import { graphOnly } from '../../graphql/loaders.js';
import { CatalogEntityRef, CatalogVariantRef, loadCatalogEntity, loadCatalogVariant } from '../catalog/index.js';
import { loadResolvedPrice } from '../pricing/graph.js';
import { ResolvedPriceRef } from '../pricing/schema.js';
import { CartItemRef } from './schema.js';

builder.objectFields(CartItemRef, (t) => ({
  entity: t.field({
    type: CatalogEntityRef,
    nullable: true,
    description: 'The catalog entity (null once deleted or no longer visible to the caller)',
    resolve: (item, _args, ctx) => loadCatalogEntity(ctx, item.entityId),
  }),
  variant: t.field({
    type: CatalogVariantRef,
    nullable: true,
    description: 'The variant (null for entity-level items)',
    resolve: (item, _args, ctx) => loadCatalogVariant(ctx, item.variantId),
  }),
  currentPrice: t.field({
    type: ResolvedPriceRef,
    nullable: true,
    description: "The price checkout would charge now for this item's quantity in the cart's currency (public prices); null when none resolves",
    resolve: (item, _args, ctx) => (item.cartCurrency ? loadResolvedPrice(ctx, item.entityId, item.variantId, { currency: item.cartCurrency, quantity: item.quantity }) : null),
  }),
}));
graphOnly('CartItem', 'entity', 'variant', 'currentPrice');
