// What other modules use from tax: the per-line rate resolver (checkout) and the class list.
// ctx.services.tax is this object; every function takes a ServiceContext whose db may be the
// caller's transaction client.
import { percentOf } from '../pricing/rounding.js';
import { resolveClassRate, resolveTaxRates } from './resolver.js';
import { findTaxClass, listTaxClasses } from './service.js';

/** Tax on a line amount at a rate, rounded half up to the minor unit (pricing/rounding.ts). */
export function lineTax(amount: bigint, rateBps: number): bigint {
  return percentOf(amount, rateBps);
}

export const taxService = { resolveTaxRates, resolveClassRate, lineTax, listTaxClasses, findTaxClass };
export type TaxService = typeof taxService;
export type { ResolvedTax, TaxLine, TaxSource } from './resolver.js';
