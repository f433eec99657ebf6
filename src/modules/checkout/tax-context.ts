// [tax] What checkout's tax step takes from the settings, the customer's groups and the address:
// the tax mode (general.pricesIncludeTax), whether the order is exempt (one of its customer
// groups is in tax.exemptCustomerGroupIds: B2B reverse charge), and each line's destination —
// the shipping address, except digital goods, which are taxed where the store is (settings
// branding.address; the shipping address when the store has none). The order records the mode
// and the exemption in `pricing` so documents and refunds read them from the order itself.
import { DIGITAL_ENTITY_TYPES } from '../customers/downloads.js';
import type { OrgSettings } from '../orders/shared.js';
import { destinationOfAddress, type TaxDestination } from '../tax/destination.js';

export interface CheckoutTax {
  pricesIncludeTax: boolean;
  exempt: boolean;
  destinationOf(entityType: string): TaxDestination | null;
  /** Merged into the order's `pricing`. */
  pricing: { pricesIncludeTax: boolean; taxExempt: boolean; taxExemptionNote: string | null };
}

export function checkoutTaxContext(settings: OrgSettings, groups: readonly string[], shippingAddress: { country?: unknown; state?: unknown; postalCode?: unknown } | null): CheckoutTax {
  const exemptGroups = new Set(settings.tax.exemptCustomerGroupIds);
  const exempt = groups.some((g) => exemptGroups.has(g));
  const shipTo = destinationOfAddress(shippingAddress);
  const store = destinationOfAddress(settings.storeAddress as { country?: unknown } | null) ?? shipTo;
  return {
    pricesIncludeTax: settings.pricesIncludeTax,
    exempt,
    destinationOf: (entityType) => (DIGITAL_ENTITY_TYPES.includes(entityType) ? store : shipTo),
    pricing: { pricesIncludeTax: settings.pricesIncludeTax, taxExempt: exempt, taxExemptionNote: exempt ? settings.tax.exemptionNote : null },
  };
}
