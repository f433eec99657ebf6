// What other modules use from promotions: validate (cart), redeem and release (checkout, order
// cancellation). ctx.services.promotions is `promotionsService`; every function takes a
// ServiceContext whose db may be the caller's transaction client.
import { findPromotion, redeemPromotion, releaseRedemption, validatePromotion } from './service.js';

export const promotionsService = { validate: validatePromotion, redeem: redeemPromotion, release: releaseRedemption, findPromotion };
export type PromotionsService = typeof promotionsService;
export type { Redemption, RedeemInput, ValidationResult } from './service.js';
export type { CartInput, CartLine, RejectionReason } from './evaluate.js';

// ctx.services.promotions: the core's Services registry (src/services.ts) is filled by each module, by declaration merging.
declare module '../../services.js' {
  interface Services {
    promotions: PromotionsService;
  }
}
