// The documents of an order, for the GraphQL fields, the raw HTTP routes and the invoice email.
import { validationFailed } from '../../../errors.js';
import type { OrdersCtx } from '../shared.js';
import { documentData } from './data.js';
import { renderInvoiceHtml } from './invoice-html.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import { renderReceiptHtml } from './receipt-html.js';

export interface RenderedDocument {
  filename: string;
  contentType: string;
  body: Buffer;
}

export async function invoicePdf(ctx: OrdersCtx, orderId: string): Promise<RenderedDocument> {
  const data = await documentData(ctx, orderId, 'invoice');
  return { filename: `${data.invoiceNumber}.pdf`, contentType: 'application/pdf', body: await renderInvoicePdf(data) };
}

export async function invoiceHtml(ctx: OrdersCtx, orderId: string): Promise<RenderedDocument> {
  const data = await documentData(ctx, orderId, 'invoice');
  return { filename: `${data.invoiceNumber}.html`, contentType: 'text/html; charset=utf-8', body: Buffer.from(renderInvoiceHtml(data)) };
}

export async function receiptHtml(ctx: OrdersCtx, orderId: string): Promise<RenderedDocument> {
  const data = await documentData(ctx, orderId, 'receipt');
  return { filename: `receipt-${data.order.number}.html`, contentType: 'text/html; charset=utf-8', body: Buffer.from(renderReceiptHtml(data)) };
}

export interface InvoiceEmailResult {
  sent: boolean;
  to: string;
  invoiceNumber: string;
  messageId: string;
  transport: string;
}

/** Emails the invoice (HTML body, PDF attached) to the order's customer address, and only there. */
export async function emailInvoice(ctx: OrdersCtx, orderId: string): Promise<InvoiceEmailResult> {
  const data = await documentData(ctx, orderId, 'invoice');
  const to = data.order.customerEmail;
  if (!to) throw validationFailed([{ field: 'id', message: 'this order has no customer email address to send the invoice to' }], 'The order has no customer email address');
  const [html, pdf] = [renderInvoiceHtml(data), await renderInvoicePdf(data)];
  const subject = `${data.storeName}: invoice ${data.invoiceNumber} for order ${data.order.number}`;
  const sent = await ctx.services.mailer.send({
    to,
    // The configured sender sends (SPF/DKIM belong to it); replies go to the store's address.
    ...(data.branding.email ? { replyTo: data.branding.email } : {}),
    subject,
    text: `Thank you for your order ${data.order.number}. Your invoice ${data.invoiceNumber} is attached.`,
    html,
    attachments: [{ filename: `${data.invoiceNumber}.pdf`, content: pdf, contentType: 'application/pdf' }],
  });
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return { sent: true, to, invoiceNumber: data.invoiceNumber!, messageId: sent.messageId, transport: sent.transport };
}
