// The order's price from its priced lines: promotions, shipping, tax and the totals. One path for
// checkout (a cart becoming an order) and order edits (an order's new lines, previewed and then
// confirmed), so an edited order is priced by exactly the rules that priced it at checkout.
// Promotion codes are redeemed through the promotions port (a use is recorded inside `tx`); an
// edit previews inside a savepoint it rolls back, so a preview records nothing.
import type { RequestContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { OrgSettings } from '../orders/shared.js';
import { serviceCtx } from '../orders/shared.js';
import { checkoutShipping } from '../shipping/checkout.js';
import { carrierContext } from '../shipping/carrier/price.js';
import type { ShippingOption } from '../shipping/quote.js';
import type { Redemption } from './ports.js';
import type { Sellable } from './sellables.js';
import { checkoutTaxContext, externalTax, type CheckoutTax } from './tax-context.js';
import { computeTotals, type Totals } from './totals.js';
import { portsOf } from './wiring.js';
import { at } from '../orders/at.js';

export interface PricingLine {
  entityId: string;
  variantId: string | null;
  quantity: number;
  /** The unit price, minor units: today's resolved price at checkout, the sold price for an edit's kept lines. */
  unitPrice: number;
  sellable: Sellable;
}

export interface PricingRequest {
  currency: string;
  groups: string[];
  address: { country: string; state?: string | null; postalCode?: string | null };
  customerId: string | null;
  /** The order the promotion uses are recorded against. */
  orderId: string;
  codes: string[];
  /** A staff discount (draft orders), minor units, on top of the promotions; spread over the lines by value. */
  manualDiscount?: number;
  settings: OrgSettings;
  lines: PricingLine[];
  shipping: { enabled: boolean; methodId: string | null | undefined; cartMethodId: string | null; cartId: string | null };
}

export interface PricedOrder {
  redemption: Redemption;
  shippingOption: ShippingOption | null;
  /** Per line: the tax class and rate the table (or the provider) gave. */
  rates: Array<{ taxClassId: string | null; rateBps: number }>;
  providerRates: number[] | null;
  totals: Totals;
  tax: CheckoutTax;
  /** Pickup orders reserve their stock where they are collected. */
  pickupWarehouseId: string | null;
}

type PricingCtx = Pick<RequestContext, 'organization' | 'actor' | 'requestId' | 'services' | 'config'>;

/** A refused promotion code (AppError) turned into the caller's error. */
export type PromotionErrorMap = (error: AppError) => Error;

export async function priceOrder(tx: Tx, ctx: PricingCtx, req: PricingRequest, mapPromotionError: PromotionErrorMap = (e) => e): Promise<PricedOrder> {
  const ports = portsOf(ctx.services);
  const tax = checkoutTaxContext(req.settings, req.groups, req.address);
  const subtotal = req.lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const redemption: Redemption = req.codes.length
    ? await ports.promotions
        .redeem(serviceCtx(ctx, tx), {
          codes: req.codes,
          currency: req.currency,
          subtotal,
          lineItems: req.lines.map((l) => ({
            entityId: l.entityId,
            entityType: l.sellable.entityType,
            quantity: l.quantity,
            unitPrice: l.unitPrice,
            totalPrice: l.unitPrice * l.quantity,
          })),
          customerId: req.customerId,
          customerGroupIds: req.groups,
          orderId: req.orderId,
        })
        .catch((error: unknown) => {
          throw error instanceof AppError ? mapPromotionError(error) : error;
        })
    : { discountTotal: 0, freeShipping: false, applied: [], lineDiscounts: [] };
  // Shipping (issue 25): the chosen method, only in stores that have active methods.
  const shippingOption = req.shipping.enabled
    ? await checkoutShipping(serviceCtx(ctx, tx), {
        currency: req.currency,
        address: req.address,
        groups: req.groups,
        lines: req.lines.map((l) => ({ variantId: l.variantId, entityType: l.sellable.entityType, quantity: l.quantity, unitPrice: l.unitPrice })),
        methodId: req.shipping.methodId,
        cartMethodId: req.shipping.cartMethodId,
        tax: { pricesIncludeTax: tax.pricesIncludeTax, exempt: tax.exempt },
        carrier: carrierContext(ctx, req.shipping.cartId), // carrier rates (shipping/carrier)
      })
    : null;
  // A pickup order reserves its stock where it is collected, and is taxed where the store
  // is (the goods are handed over there), like digital goods.
  const pickupWarehouseId = shippingOption?.kind === 'pickup' ? (shippingOption.pickupLocation?.warehouseId ?? null) : null;
  const lineTax = shippingOption?.kind === 'pickup' ? tax.atStore() : tax;
  const rates = await ports.taxes.resolve(
    serviceCtx(ctx, tx),
    req.lines.map((l) => ({
      entityId: l.entityId,
      variantId: l.variantId,
      entityTaxClassId: l.sellable.entityTaxClassId,
      variantTaxClassId: l.sellable.variantTaxClassId,
      destination: lineTax.destinationOf(l.sellable.entityType),
    })),
  );
  const totalsInput = {
    pricesIncludeTax: tax.pricesIncludeTax,
    taxExempt: tax.exempt,
    lines: req.lines.map((l, i) => ({ unitPrice: l.unitPrice, quantity: l.quantity, rateBps: at(rates, i).rateBps })),
    discountTotal: redemption.discountTotal + Math.max(0, req.manualDiscount ?? 0),
    lineDiscounts: redemption.lineDiscounts,
    freeShipping: redemption.freeShipping,
    shipping: req.settings.shipping,
    ...(shippingOption ? { shippingCharges: [{ amount: shippingOption.amount, rateBps: shippingOption.taxRateBps }] } : {}),
  };
  let totals = computeTotals(totalsInput);
  // [tax] An external tax provider decides the tax of the discounted draft (before stock and
  // payment, so its failure — 503 — leaves nothing written).
  const providerTax = await externalTax(
    ctx.services.tax.provider,
    lineTax,
    req.currency,
    req.lines.map((l, i) => ({
      item: { entityId: l.entityId, quantity: l.quantity },
      sellable: l.sellable,
      unitPrice: l.unitPrice,
      rateBps: at(rates, i).rateBps,
      taxClassId: at(rates, i).taxClassId,
    })),
    totals,
  );
  if (providerTax) totals = computeTotals({ ...totalsInput, providerTax });
  return { redemption, shippingOption, rates, providerRates: providerTax?.rates ?? null, totals, tax, pickupWarehouseId };
}
