// GET /orders/:id/invoice.html: a printable HTML invoice (A4 print styles, no scripts, no external
// resources other than the store's own logo URL). Every value is escaped.
import { addressLines, escapeHtml as e, formatDate, formatMoney, formatRate } from './format.js';
import type { DocumentData } from './data.js';

export const DOCUMENT_CSS = `
  :root { --accent: #222; }
  * { box-sizing: border-box; }
  body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222; margin: 0; padding: 32px; }
  .doc { max-width: 800px; margin: 0 auto; }
  header { display: flex; justify-content: space-between; gap: 24px; border-bottom: 3px solid var(--accent); padding-bottom: 16px; }
  header img { max-height: 56px; max-width: 200px; }
  h1 { font-size: 24px; margin: 0 0 4px; color: var(--accent); }
  .muted { color: #666; }
  .parties { display: flex; justify-content: space-between; gap: 24px; margin: 24px 0; }
  table { width: 100%; border-collapse: collapse; }
  th, td { padding: 8px 6px; text-align: left; border-bottom: 1px solid #ddd; vertical-align: top; }
  th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: #555; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  .totals { margin-left: auto; width: 320px; margin-top: 16px; }
  .totals td { border: none; padding: 4px 6px; }
  .totals tr.grand td { border-top: 2px solid var(--accent); font-weight: 700; font-size: 16px; }
  footer { margin-top: 32px; font-size: 12px; color: #666; border-top: 1px solid #ddd; padding-top: 12px; }
  @media print { body { padding: 0; } @page { size: A4; margin: 16mm; } a { color: inherit; text-decoration: none; } }
`;

export function storeIdentity(data: DocumentData): string[] {
  const b = data.branding;
  return [
    b.legalName && b.legalName !== data.storeName ? b.legalName : undefined,
    ...addressLines(b.address ?? null),
    b.email,
    b.phone,
    b.website,
    b.taxId ? `Tax ID: ${b.taxId}` : undefined,
  ].filter((line): line is string => typeof line === 'string' && line !== '');
}

function accent(data: DocumentData): string {
  // Settings validate primaryColor as #rrggbb; anything else falls back rather than reaching CSS.
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return /^#[0-9a-fA-F]{6}$/.test(data.branding.primaryColor ?? '') ? data.branding.primaryColor! : '#222222';
}

export function page(title: string, data: DocumentData, body: string): string {
  return `<!doctype html>
<html lang="${e(data.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>${DOCUMENT_CSS} :root { --accent: ${accent(data)}; }</style>
</head>
<body><div class="doc">
${body}
</div></body>
</html>
`;
}

export function renderInvoiceHtml(data: DocumentData): string {
  const { order, locale } = data;
  const money = (minor: number) => e(formatMoney(minor, order.currency, locale));
  const logo = data.branding.logoUrl && /^https?:\/\//.test(data.branding.logoUrl) ? `<img src="${e(data.branding.logoUrl)}" alt="${e(data.storeName)}">` : '';
  const billTo = [order.customerEmail ?? '', ...addressLines(order.shippingAddress)].filter(Boolean);
  const lines = order.lineItems
    .map(
      (line) => `<tr>
  <td>${e(line.title)}<div class="muted">${e(line.sku)}</div></td>
  <td class="num">${line.quantity}${line.refundedQuantity ? ` <span class="muted">(${line.refundedQuantity} refunded)</span>` : ''}</td>
  <td class="num">${money(line.unitPrice)}</td>
  <td class="num">${line.discountTotal ? `−${money(line.discountTotal)}` : ''}</td>
  <td class="num">${e(formatRate(line.taxRateBps))}</td>
  <td class="num">${money(line.totalPrice)}</td>
</tr>`,
    )
    .join('\n');
  const taxes = data.taxes
    .filter((t) => t.tax > 0 || t.rateBps > 0)
    .map((t) => `<tr><td>Tax ${e(formatRate(t.rateBps))} on ${money(t.base)}</td><td class="num">${money(t.tax)}</td></tr>`)
    .join('\n');
  const title = `Invoice ${data.invoiceNumber ?? ''}`.trim();
  return page(
    `${title} · ${data.storeName}`,
    data,
    `<header>
  <div>${logo}<h1>${e(data.storeName)}</h1><div class="muted">${storeIdentity(data).map(e).join('<br>')}</div></div>
  <div style="text-align:right">
    <h1>Invoice</h1>
    <div><strong>${e(data.invoiceNumber ?? '')}</strong></div>
    <div class="muted">Date: ${e(formatDate(data.invoicedAt ?? order.placedAt, locale, data.timeZone))}</div>
    <div class="muted">Order: ${e(order.number)}</div>
  </div>
</header>
<section class="parties">
  <div><div class="muted">Bill to</div>${billTo.map(e).join('<br>') || '<span class="muted">—</span>'}</div>
  <div style="text-align:right"><div class="muted">Payment</div>${e(order.paymentStatus.replace(/_/g, ' '))}</div>
</section>
<table>
  <thead><tr><th>Item</th><th class="num">Qty</th><th class="num">Unit price</th><th class="num">Discount</th><th class="num">Tax</th><th class="num">Amount</th></tr></thead>
  <tbody>
${lines}
  </tbody>
</table>
<table class="totals">
  <tr><td>Subtotal</td><td class="num">${money(order.subtotal)}</td></tr>
  ${order.discountTotal ? `<tr><td>Discounts</td><td class="num">−${money(order.discountTotal)}</td></tr>` : ''}
  ${taxes}
  <tr><td>${data.pricesIncludeTax ? 'Tax included' : 'Tax total'}</td><td class="num">${money(order.taxTotal)}</td></tr>
  <tr><td>Shipping${order.shippingLines?.length ? ` (${e(order.shippingLines.map((l) => l.name).join(', '))})` : ''}</td><td class="num">${money(order.shippingTotal)}</td></tr>
  <tr class="grand"><td>Total</td><td class="num">${money(order.grandTotal)}</td></tr>
  ${order.refundedAmount ? `<tr><td>Refunded</td><td class="num">−${money(order.refundedAmount)}</td></tr>` : ''}
</table>
${data.taxNote ? `<p class="tax-note">${e(data.taxNote)}</p>` : ''}
<footer>${e(data.branding.receiptFooter ?? '')}</footer>`,
  );
}
