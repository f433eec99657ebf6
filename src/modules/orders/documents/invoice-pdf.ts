// GET /orders/:id/invoice.pdf: the fiscal invoice as a real PDF (pdfkit): store identity from
// settings `branding`, invoice and order numbers, bill-to, lines, tax per rate and totals.
// pdfkit's standard Helvetica covers Latin-1 (WinAnsi); text outside it is transliterated to '?'
// by pdfkit, so stores selling under non-Latin titles should register a font (not bundled here).
import type PDFKit from 'pdfkit';
import { lazyModule } from '../../../lazy.js';
import { addressLines, formatDate, formatMoneyForPdf, formatRate } from './format.js';
import { storeIdentity } from './invoice-html.js';
import type { DocumentData } from './data.js';

const PDFDocument = lazyModule<typeof PDFKit>('pdfkit');

const MARGIN = 50;

export function renderInvoicePdf(data: DocumentData): Promise<Buffer> {
  const { order, locale } = data;
  const money = (minor: number) => formatMoneyForPdf(minor, order.currency, locale);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const accent = /^#[0-9a-fA-F]{6}$/.test(data.branding.primaryColor ?? '') ? data.branding.primaryColor! : '#222222';
  const doc = new (PDFDocument())({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Invoice ${data.invoiceNumber ?? ''}`.trim(), Author: data.storeName, Subject: `Order ${order.number}`, Creator: 'commerce-service' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - MARGIN * 2;
  const right = (text: string, y: number, options: PDFKit.Mixins.TextOptions = {}) => doc.text(text, MARGIN, y, { width, align: 'right', ...options });

  // Header: store identity left, invoice identity right.
  const top = MARGIN;
  doc
    .fillColor(accent)
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(data.storeName, MARGIN, top, { width: width / 2 });
  doc.fillColor('#444444').font('Helvetica').fontSize(9);
  for (const line of storeIdentity(data)) doc.text(line, { width: width / 2 });
  const leftBottom = doc.y;
  doc.fillColor(accent).font('Helvetica-Bold').fontSize(18);
  right('INVOICE', top);
  doc.fillColor('#222222').font('Helvetica').fontSize(10);
  right(data.invoiceNumber ?? '', top + 24);
  right(`Date: ${formatDate(data.invoicedAt ?? order.placedAt, locale, data.timeZone)}`, top + 38);
  right(`Order: ${order.number}`, top + 52);
  let y = Math.max(leftBottom, top + 70) + 14;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + width, y)
    .lineWidth(2)
    .strokeColor(accent)
    .stroke();
  y += 14;

  // Bill to.
  doc.fillColor('#666666').fontSize(9).text('BILL TO', MARGIN, y);
  doc.fillColor('#222222').fontSize(10);
  const billTo = [order.customerEmail ?? '', ...addressLines(order.shippingAddress)].filter(Boolean);
  for (const line of billTo.length ? billTo : ['-']) doc.text(line);
  y = doc.y + 18;

  // Lines.
  const cols = [
    { title: 'Item', x: MARGIN, w: width * 0.4, align: 'left' as const },
    { title: 'Qty', x: MARGIN + width * 0.4, w: width * 0.08, align: 'right' as const },
    { title: 'Unit price', x: MARGIN + width * 0.48, w: width * 0.15, align: 'right' as const },
    { title: 'Discount', x: MARGIN + width * 0.63, w: width * 0.13, align: 'right' as const },
    { title: 'Tax', x: MARGIN + width * 0.76, w: width * 0.08, align: 'right' as const },
    { title: 'Amount', x: MARGIN + width * 0.84, w: width * 0.16, align: 'right' as const },
  ];
  const row = (cells: string[], options: { bold?: boolean; color?: string } = {}) => {
    doc
      .font(options.bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9)
      .fillColor(options.color ?? '#222222');
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const heights = cells.map((cell, i) => doc.heightOfString(cell, { width: cols[i]!.w }));
    const height = Math.max(...heights);
    if (y + height > doc.page.height - MARGIN - 120) {
      doc.addPage();
      y = MARGIN;
    }
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    cells.forEach((cell, i) => doc.text(cell, cols[i]!.x, y, { width: cols[i]!.w, align: cols[i]!.align }));
    y += height + 6;
    doc
      .moveTo(MARGIN, y - 3)
      .lineTo(MARGIN + width, y - 3)
      .lineWidth(0.5)
      .strokeColor('#dddddd')
      .stroke();
  };
  row(
    cols.map((c) => c.title.toUpperCase()),
    { bold: true, color: '#555555' },
  );
  for (const line of order.lineItems) {
    row([
      `${line.title}\n${line.sku}`,
      String(line.quantity),
      money(line.unitPrice),
      line.discountTotal ? `-${money(line.discountTotal)}` : '',
      formatRate(line.taxRateBps),
      money(line.totalPrice),
    ]);
  }

  // Totals.
  y += 8;
  const totals: Array<[string, string, boolean?]> = [['Subtotal', money(order.subtotal)]];
  if (order.discountTotal) totals.push(['Discounts', `-${money(order.discountTotal)}`]);
  for (const t of data.taxes) if (t.tax > 0 || t.rateBps > 0) totals.push([`Tax ${formatRate(t.rateBps)} on ${money(t.base)}`, money(t.tax)]);
  totals.push(
    [data.pricesIncludeTax ? 'Tax included' : 'Tax total', money(order.taxTotal)],
    [order.shippingLines?.length ? `Shipping (${order.shippingLines.map((l) => l.name).join(', ')})` : 'Shipping', money(order.shippingTotal)],
    ['Total', money(order.grandTotal), true],
  );
  if (data.taxNote) totals.push([data.taxNote, '']);
  if (order.refundedAmount) totals.push(['Refunded', `-${money(order.refundedAmount)}`]);
  const labelX = MARGIN + width * 0.45;
  for (const [label, value, bold] of totals) {
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 11 : 9)
      .fillColor('#222222');
    doc.text(label, labelX, y, { width: width * 0.35 });
    doc.text(value, labelX + width * 0.35, y, { width: width * 0.2, align: 'right' });
    y += bold ? 18 : 14;
  }

  if (data.branding.receiptFooter) {
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#666666')
      .text(data.branding.receiptFooter, MARGIN, Math.max(y + 20, doc.page.height - MARGIN - 40), { width, align: 'center' });
  }
  doc.end();
  return done;
}
