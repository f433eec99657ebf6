// GET /orders/:id/receipt.html: a compact, printable receipt (fits a narrow receipt printer as
// well as a page). Every value is escaped.
import { escapeHtml as e, formatDateTime, formatMoney } from './format.js';
import { page, storeIdentity } from './invoice-html.js';
import type { DocumentData } from './data.js';

export function renderReceiptHtml(data: DocumentData): string {
  const { order, locale } = data;
  const money = (minor: number) => e(formatMoney(minor, order.currency, locale));
  const lines = order.lineItems
    .map(
      (line) =>
        `<tr><td>${line.quantity} × ${e(line.title)}<div class="muted">${money(line.unitPrice)} · ${e(line.sku)}</div></td><td class="num">${money(line.totalPrice)}</td></tr>`,
    )
    .join('\n');
  return page(
    `Receipt ${order.number} · ${data.storeName}`,
    data,
    `<style>.doc { max-width: 380px; } header { display: block; text-align: center; } @media print { @page { size: 80mm auto; margin: 4mm; } }</style>
<header>
  <h1>${e(data.storeName)}</h1>
  <div class="muted">${storeIdentity(data).map(e).join('<br>')}</div>
</header>
<p><strong>Receipt</strong> · ${e(order.number)}<br><span class="muted">${e(formatDateTime(order.placedAt, locale, data.timeZone))}</span></p>
<table>
${lines}
</table>
<table class="totals" style="width:100%">
  <tr><td>Subtotal</td><td class="num">${money(order.subtotal)}</td></tr>
  ${order.discountTotal ? `<tr><td>Discounts</td><td class="num">−${money(order.discountTotal)}</td></tr>` : ''}
  <tr><td>Tax</td><td class="num">${money(order.taxTotal)}</td></tr>
  <tr><td>Shipping${order.shippingLines?.length ? ` (${e(order.shippingLines.map((l) => l.name).join(', '))})` : ''}</td><td class="num">${money(order.shippingTotal)}</td></tr>
  <tr class="grand"><td>Total</td><td class="num">${money(order.grandTotal)}</td></tr>
  ${order.refundedAmount ? `<tr><td>Refunded</td><td class="num">−${money(order.refundedAmount)}</td></tr>` : ''}
</table>
<p class="muted">Payment: ${e(order.paymentStatus.replace(/_/g, ' '))}</p>
<footer style="text-align:center">${e(data.branding.receiptFooter ?? 'Thank you for your order.')}</footer>`,
  );
}
