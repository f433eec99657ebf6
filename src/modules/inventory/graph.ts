// Stock in the graph: a variant's stock figures, resolved when selected from the same batch as
// its entity's `inventory` (one availability read for the whole response level). Like
// GET /inventory/check it needs inventory:read: storefronts without it see null and a FORBIDDEN
// error for the field.
import { builder } from '../../graphql/builder.js';
import { graphOnly } from '../../graphql/loaders.js';
import { CatalogVariantRef, loadIncluded } from '../catalog/index.js';
import type { EntityAvailability } from './availability.js';
import { VariantStockRef } from './schema.js';
import './storefront-availability.js';

builder.objectField(CatalogVariantRef, 'stock', (t) =>
  t.field({
    type: VariantStockRef,
    nullable: true,
    authScopes: { permission: 'inventory:read' },
    description: 'Stock of this variant over every warehouse (needs inventory:read); null when it has no stock level',
    resolve: (variant, _args, ctx) =>
      loadIncluded<EntityAvailability | null>(ctx, 'inventory', variant.entityId).then((entity) => entity?.variants?.find((v) => v.variantId === variant.id) ?? null),
  }),
);
graphOnly('CatalogVariant', 'stock');
