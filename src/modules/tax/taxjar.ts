// TaxJar's SalesTax API (POST {apiUrl}/taxes, https://developers.taxjar.com/api/reference/#post-calculate-sales-tax-for-an-order)
// as a TaxProvider. TaxJar speaks major units (dollars as decimals) and per-line `discount`;
// its answer's breakdown gives `tax_collectable` per line id and on shipping. Amounts convert
// to minor units by the currency's fraction digits (Intl), rounding half up.
import { AppError } from '../../errors.js';
import { taxProviderUnavailable, type TaxCalculation, type TaxDraft, type TaxProvider } from './provider.js';
import type { TaxDestination } from './destination.js';
import { tracedFetch } from '../../observability/trace-context.js';

export interface TaxJarOptions {
  apiUrl: string;
  apiToken: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units → TaxJar's decimal major units. */
export function toMajor(minor: number, digits: number): number {
  return Number((minor / 10 ** digits).toFixed(digits));
}

/** TaxJar's decimal → minor units, half up (toFixed first: 1.005 × 100 is 100.49999… in floating point). */
export function toMinor(major: number, digits: number): number {
  return Math.round(Number((major * 10 ** digits).toFixed(6)));
}

function address(prefix: 'from' | 'to', d: TaxDestination | null): Record<string, string> {
  if (!d) return {};
  const state = d.region ? d.region.replace(/^[A-Z]{2}-/, '') : undefined;
  return { [`${prefix}_country`]: d.countryCode, ...(d.postalCode ? { [`${prefix}_zip`]: d.postalCode } : {}), ...(state ? { [`${prefix}_state`]: state } : {}) };
}

interface TaxJarResponse {
  tax?: {
    amount_to_collect?: number;
    breakdown?: { line_items?: Array<{ id: string; tax_collectable: number; combined_tax_rate?: number }>; shipping?: { tax_collectable?: number } };
  };
}

export function taxJarProvider(options: TaxJarOptions): TaxProvider {
  const send = tracedFetch(options.fetch ?? fetch, 'tax taxjar');
  return {
    name: 'taxjar',
    async calculate(draft: TaxDraft): Promise<TaxCalculation> {
      const digits = fractionDigits(draft.currency);
      const lineItems = draft.lines.map((l) => ({
        id: String(l.index),
        quantity: l.quantity,
        unit_price: toMajor(l.unitPrice, digits),
        discount: toMajor(l.discount, digits),
        ...(l.sku ? { product_identifier: l.sku } : {}),
      }));
      const amount = draft.lines.reduce((s, l) => s + l.unitPrice * l.quantity - l.discount, 0);
      const body = {
        ...address('from', draft.shipFrom),
        ...address('to', draft.shipTo),
        amount: toMajor(amount, digits),
        shipping: toMajor(draft.shipping, digits),
        line_items: lineItems,
      };
      let json: TaxJarResponse;
      try {
        const res = await send(`${options.apiUrl.replace(/\/$/, '')}/taxes`, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiToken}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!res.ok) throw taxProviderUnavailable('taxjar', `HTTP ${res.status}`);
        json = (await res.json()) as TaxJarResponse;
      } catch (error) {
        if (error instanceof AppError) throw error;
        const reason = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') ? `no answer within ${options.timeoutMs} ms` : 'unreachable';
        throw taxProviderUnavailable('taxjar', reason);
      }
      const byId = new Map((json.tax?.breakdown?.line_items ?? []).map((l) => [String(l.id), l]));
      const lines = draft.lines.map((l) => {
        const found = byId.get(String(l.index));
        if (!found || typeof found.tax_collectable !== 'number' || !Number.isFinite(found.tax_collectable) || found.tax_collectable < 0) {
          throw taxProviderUnavailable('taxjar', `no tax for line ${l.index} in the answer`);
        }
        return { taxTotal: toMinor(found.tax_collectable, digits), rateBps: Math.round((found.combined_tax_rate ?? 0) * 10_000) };
      });
      const shippingTax = json.tax?.breakdown?.shipping?.tax_collectable;
      return { lines, shippingTax: typeof shippingTax === 'number' && shippingTax > 0 ? toMinor(shippingTax, digits) : 0 };
    },
  };
}
