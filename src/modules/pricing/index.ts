// What other modules use from pricing: the resolver (cart, checkout) and price reads.
// ctx.services.pricing is `pricingService`; every function takes a ServiceContext whose db may be
// the caller's transaction client.
import { findPrice, listPrices } from './prices.service.js';
import { priceInputsSql, pricesFrom, resolvePrice, resolvePrices } from './resolver.js';
import { discounted, percentOf } from './rounding.js';

export const pricingService = { resolvePrice, resolvePrices, priceInputsSql, pricesFrom, findPrice, listPrices, percentOf, discounted };
export type PricingService = typeof pricingService;
export type { ResolvedPrice, PriceQuery, PriceContextInput } from './resolver.js';

// ctx.services.pricing: the core's Services registry (src/services.ts) is filled by each module, by declaration merging.
declare module '../../services.js' {
  interface Services {
    pricing: PricingService;
  }
}
