// GraphQL types shared by the shipping schema files (kept free of other modules' schemas, so
// checkout and orders can import shipping without an import cycle).
import { builder } from '../../graphql/builder.js';
import { AddressRef, type AddressView } from '../../graphql/address.js';
import type { PickupLocation } from './quote.js';

export const PickupLocationRef = builder.objectRef<PickupLocation>('PickupLocation').implement({
  description: "Where a pickup order is collected: the method's warehouse.",
  fields: (t) => ({
    warehouseId: t.expose('warehouseId', { type: 'UUID' }),
    name: t.exposeString('name'),
    address: t.field({ type: AddressRef, nullable: true, resolve: (p) => p.address as AddressView | null }),
  }),
});
