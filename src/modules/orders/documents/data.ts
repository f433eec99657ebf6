// What every order document shows, loaded once: the order, the store identity from settings
// `branding`, the locale and timezone from `general`, the tax summary per rate and, for
// invoices, the invoice number. Invoice numbers (INV-YYYY-NNNNNN, sequential per organization
// and year of issue) are issued the first time an order's invoice is produced, in a transaction
// that locks the order, so two concurrent first requests agree on one number.
import { conflict } from '../../../errors.js';
import { nextNumber, yearIn } from '../numbers.js';
import { findOrder, lockOrder } from '../service.js';
import { orgSettings, type OrdersCtx } from '../shared.js';
import { inTransaction } from '../tx.js';
import { orderView, type OrderView } from '../views.js';
import { shippingLineView } from '../../shipping/line-view.js';

export interface Branding {
  storeName?: string;
  legalName?: string;
  email?: string;
  phone?: string;
  website?: string;
  logoUrl?: string;
  taxId?: string;
  address?: { line1?: string; line2?: string; city?: string; state?: string; postalCode?: string; country?: string };
  receiptFooter?: string;
  primaryColor?: string;
}

export interface TaxSummaryRow {
  rateBps: number;
  /** Net amount the rate applies to (line totals after discounts). */
  base: number;
  tax: number;
}

export interface DocumentData {
  order: OrderView;
  branding: Branding;
  storeName: string;
  locale: string;
  timeZone: string;
  invoiceNumber: string | null;
  invoicedAt: Date | null;
  taxes: TaxSummaryRow[];
  /** The order's prices contained tax: the tax total is "included", not added. */
  pricesIncludeTax: boolean;
  /** A tax-exempt order's note (e.g. "Reverse charge"), else null. */
  taxNote: string | null;
}

/** Tax mode and exemption, as checkout recorded them in the order's pricing. */
export function taxModeOf(order: OrderView): { pricesIncludeTax: boolean; taxNote: string | null } {
  const pricing = order.pricing as { pricesIncludeTax?: unknown; taxExempt?: unknown; taxExemptionNote?: unknown };
  const note = pricing.taxExempt === true ? (typeof pricing.taxExemptionNote === 'string' ? pricing.taxExemptionNote : 'Reverse charge') : null;
  return { pricesIncludeTax: pricing.pricesIncludeTax === true, taxNote: note };
}

function taxSummary(order: OrderView): TaxSummaryRow[] {
  const byRate = new Map<number, TaxSummaryRow>();
  const inclusive = taxModeOf(order).pricesIncludeTax;
  for (const line of order.lineItems) {
    const row = byRate.get(line.taxRateBps) ?? { rateBps: line.taxRateBps, base: 0, tax: 0 };
    // The base is always net: a tax-inclusive line's tax comes out of its amount.
    row.base += line.totalPrice - line.discountTotal - (inclusive ? line.taxTotal : 0);
    row.tax += line.taxTotal;
    byRate.set(line.taxRateBps, row);
  }
  // Shipping charges are taxed at their method's class rate (issue 25): in the summary too, so
  // the rows add up to the order's taxTotal.
  for (const line of order.shippingLines ?? []) {
    if (!line.taxTotal && !line.taxRateBps) continue;
    const row = byRate.get(line.taxRateBps) ?? { rateBps: line.taxRateBps, base: 0, tax: 0 };
    row.base += line.amount;
    row.tax += line.taxTotal;
    byRate.set(line.taxRateBps, row);
  }
  return [...byRate.values()].sort((a, b) => a.rateBps - b.rateBps);
}

export async function documentData(ctx: OrdersCtx, orderId: string, kind: 'invoice' | 'receipt'): Promise<DocumentData> {
  let row = await findOrder(ctx, orderId);
  const settings = await orgSettings(ctx.db, ctx.organization.id);
  if (kind === 'invoice' && !row.invoiceNumber) {
    if (row.status === 'cancelled') throw conflict('A cancelled order that was never invoiced has no invoice');
    row = await inTransaction(ctx.db, async (tx) => {
      const locked = await lockOrder(tx, ctx, row.id);
      if (locked.invoiceNumber) return locked;
      const now = new Date();
      const invoiceNumber = await nextNumber(tx, ctx.organization.id, 'invoice', yearIn(now, settings.timezone));
      const updated = await tx.order.update({ where: { id: locked.id }, data: { invoiceNumber, invoicedAt: now }, include: { lines: { orderBy: { position: 'asc' } } } });
      return updated;
    });
  }
  const branding = settings.branding as Branding;
  const shippingLines = await ctx.db.orderShippingLine.findMany({
    where: { organizationId: ctx.organization.id, orderId: row.id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const order = { ...orderView(row), shippingLines: shippingLines.map(shippingLineView) };
  return {
    order,
    branding,
    storeName: branding.storeName ?? ctx.organization.name,
    locale: settings.locale,
    timeZone: settings.timezone,
    invoiceNumber: row.invoiceNumber,
    invoicedAt: row.invoicedAt,
    taxes: taxSummary(order),
    ...taxModeOf(order),
  };
}
