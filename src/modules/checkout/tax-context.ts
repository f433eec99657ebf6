// [tax] What checkout's tax step takes from the settings, the customer's groups and the address:
// the tax mode (general.pricesIncludeTax), whether the order is exempt (one of its customer
// groups is in tax.exemptCustomerGroupIds: B2B reverse charge), and each line's destination —
// the shipping address, except digital goods and pickup orders, which are taxed where the store
// is (settings branding.address; the shipping address when the store has none). The order records the mode
// and the exemption in `pricing` so documents and refunds read them from the order itself.
import { DIGITAL_ENTITY_TYPES } from '../customers/digital.js';
import type { OrgSettings } from '../orders/shared.js';
import { destinationOfAddress, type TaxDestination } from '../tax/destination.js';
import type { TaxProvider } from '../tax/provider.js';
import type { Totals } from './totals.js';

export interface CheckoutTax {
  pricesIncludeTax: boolean;
  exempt: boolean;
  destinationOf(entityType: string): TaxDestination | null;
  /** The same context for an order handed over at the store (pickup): every line taxed there. */
  atStore(): CheckoutTax;
  shipTo: TaxDestination | null;
  shipFrom: TaxDestination | null;
  /** Merged into the order's `pricing`. */
  pricing: { pricesIncludeTax: boolean; taxExempt: boolean; taxExemptionNote: string | null };
}

export function checkoutTaxContext(
  settings: OrgSettings,
  groups: readonly string[],
  shippingAddress: { country?: unknown; state?: unknown; postalCode?: unknown } | null,
): CheckoutTax {
  const exemptGroups = new Set(settings.tax.exemptCustomerGroupIds);
  const exempt = groups.some((g) => exemptGroups.has(g));
  const shipTo = destinationOfAddress(shippingAddress);
  const store = destinationOfAddress(settings.storeAddress as { country?: unknown } | null) ?? shipTo;
  const context: CheckoutTax = {
    pricesIncludeTax: settings.pricesIncludeTax,
    exempt,
    shipTo,
    shipFrom: destinationOfAddress(settings.storeAddress as { country?: unknown } | null),
    destinationOf: (entityType) => (DIGITAL_ENTITY_TYPES.includes(entityType) ? store : shipTo),
    atStore: () => ({ ...context, destinationOf: () => store }),
    pricing: { pricesIncludeTax: settings.pricesIncludeTax, taxExempt: exempt, taxExemptionNote: exempt ? settings.tax.exemptionNote : null },
  };
  return context;
}

interface DraftSource {
  item: { entityId: string; quantity: number };
  sellable: { entityType: string; sku: string };
  unitPrice: number;
  rateBps: number;
  taxClassId: string | null;
}

/**
 * The external provider's tax for the priced draft, or null when the table decides (the default
 * provider, tax-inclusive prices, an exempt order). Throws 503 SERVICE_UNAVAILABLE when the
 * provider fails.
 */
export async function externalTax(
  provider: TaxProvider,
  tax: CheckoutTax,
  currency: string,
  sold: DraftSource[],
  totals: Totals,
): Promise<{ lines: number[]; shipping: number; rates: number[] } | null> {
  if (!provider.calculate || tax.pricesIncludeTax || tax.exempt) return null;
  const result = await provider.calculate({
    currency,
    shipFrom: tax.shipFrom,
    shipTo: tax.shipTo,
    shipping: totals.shippingTotal,
    lines: sold.map((s, index) => ({
      index,
      entityId: s.item.entityId,
      sku: s.sellable.sku,
      quantity: s.item.quantity,
      unitPrice: s.unitPrice,
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      discount: totals.lines[index]!.discountTotal,
      taxClassId: s.taxClassId,
      rateBps: s.rateBps,
      destination: tax.destinationOf(s.sellable.entityType),
    })),
  });
  return { lines: result.lines.map((l) => l.taxTotal), shipping: result.shippingTax, rates: result.lines.map((l) => l.rateBps) };
}
