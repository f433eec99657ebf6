// Tax providers: who decides the tax of an order draft. The built-in `table` provider is the
// default and is the resolver's rates (classes and zone rates) applied by checkout's totals —
// checkout does not call out for it at all, so a store without a provider costs nothing more.
// An external provider (taxjar.ts) receives the draft after discounts and returns the tax per
// line and on shipping, in minor units. Its failure (unreachable, timeout, non-2xx, malformed
// answer) is a ProviderUnavailable: checkout answers 503 SERVICE_UNAVAILABLE and, since it is
// called inside checkout's transaction before stock and payment, nothing is written.
//
// External providers are for tax-exclusive stores (TaxJar's model: US sales tax on top of net
// prices); a store with general.pricesIncludeTax, or an exempt order, keeps the table.
import { AppError } from '../../errors.js';
import type { TaxDestination } from './destination.js';

export interface TaxDraftLine {
  /** Position in the order (providers echo it back as the line id). */
  index: number;
  entityId: string;
  sku: string;
  quantity: number;
  unitPrice: number;
  /** The line's share of the order's discounts, minor units. */
  discount: number;
  taxClassId: string | null;
  /** The table's rate for this line (classes and zones), for providers that want a hint. */
  rateBps: number;
  destination: TaxDestination | null;
}

export interface TaxDraft {
  currency: string;
  shipFrom: TaxDestination | null;
  shipTo: TaxDestination | null;
  lines: TaxDraftLine[];
  /** Shipping charged on the order, minor units. */
  shipping: number;
}

export interface TaxCalculation {
  /** Tax per draft line, minor units, index for index. */
  lines: Array<{ taxTotal: number; rateBps: number }>;
  /** Tax on shipping, minor units. */
  shippingTax: number;
}

export interface TaxProvider {
  readonly name: string;
  /** Null for the built-in table: checkout computes from the resolved rates itself. */
  calculate: ((draft: TaxDraft) => Promise<TaxCalculation>) | null;
}

export const tableTaxProvider: TaxProvider = { name: 'table', calculate: null };

/** The provider could not answer: checkout is 503 and writes nothing. */
export function taxProviderUnavailable(provider: string, reason: string): AppError {
  return new AppError('SERVICE_UNAVAILABLE', `The tax provider (${provider}) could not be reached: ${reason}. Nothing was charged or written; try again`, {
    step: 'tax',
    provider,
    reason,
  });
}
