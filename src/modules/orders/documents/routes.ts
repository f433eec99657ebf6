// The order documents as files: GET /api/orders/:id/invoice.pdf, /invoice.html, /receipt.html.
// Same services and permissions as the orderInvoicePdf / orderInvoiceHtml / orderReceiptHtml
// GraphQL fields.
import { defineRawRoute } from '../../../http/raw-routes.js';
import { PERMISSION } from '../shared.js';
import { invoiceHtml, invoicePdf, receiptHtml, type RenderedDocument } from './service.js';

const access = { anyPermission: [PERMISSION.read, PERMISSION.readOwn] } as const;
const errors = {
  401: { description: 'No valid credentials (UNAUTHORIZED)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } },
  403: { description: 'Missing permission (FORBIDDEN)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } },
  404: { description: 'No such order for this caller (NOT_FOUND)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } },
  409: {
    description: 'A cancelled order that was never invoiced has no invoice (CONFLICT)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
  },
};

function fileResponse(doc: RenderedDocument, disposition: 'inline' | 'attachment'): Response {
  return new Response(new Uint8Array(doc.body), {
    status: 200,
    headers: {
      'content-type': doc.contentType,
      'content-disposition': `${disposition}; filename="${doc.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'cache-control': 'private, no-store',
      // The HTML documents carry no scripts: forbid any, and any framing by other sites.
      'content-security-policy': "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
      'x-content-type-options': 'nosniff',
    },
  });
}

defineRawRoute({
  method: 'GET',
  path: '/orders/:id/invoice.pdf',
  access,
  openapi: {
    operationId: 'orderInvoicePdfFile',
    summary: 'Fiscal PDF invoice of an order',
    description:
      'The first invoice of an order issues its sequential invoice number (INV-YYYY-NNNNNN). `:id` is the order UUID or number. GraphQL twin: `query { orderInvoicePdf }` (base64).',
    tags: ['orders'],
    responses: { 200: { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } }, ...errors },
  },
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  handle: async (ctx, params) => fileResponse(await invoicePdf(ctx, params.id!), 'inline'),
});

defineRawRoute({
  method: 'GET',
  path: '/orders/:id/invoice.html',
  access,
  openapi: {
    operationId: 'orderInvoiceHtmlPage',
    summary: 'Printable HTML invoice of an order',
    description: '`:id` is the order UUID or number. GraphQL twin: `query { orderInvoiceHtml }`.',
    tags: ['orders'],
    responses: { 200: { description: 'The HTML page', content: { 'text/html': { schema: { type: 'string' } } } }, ...errors },
  },
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  handle: async (ctx, params) => fileResponse(await invoiceHtml(ctx, params.id!), 'inline'),
});

defineRawRoute({
  method: 'GET',
  path: '/orders/:id/receipt.html',
  access,
  openapi: {
    operationId: 'orderReceiptHtmlPage',
    summary: 'Printable HTML receipt of an order',
    description: '`:id` is the order UUID or number. GraphQL twin: `query { orderReceiptHtml }`.',
    tags: ['orders'],
    responses: { 200: { description: 'The HTML page', content: { 'text/html': { schema: { type: 'string' } } } }, ...errors },
  },
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  handle: async (ctx, params) => fileResponse(await receiptHtml(ctx, params.id!), 'inline'),
});
