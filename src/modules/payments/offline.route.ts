// The offline provider's 3-D Secure challenge page, on our own server (like Stripe's test-mode
// authentication page): GET /api/payments/offline/challenge?reference=pi_offline_... shows
// "Complete" and "Fail"; following one (result=succeeded|failed) sends the shopper back to the
// checkout's returnUrl with payment_intent and offline_result, which the storefront posts to
// POST /api/payments/:id/confirm. Served only while the offline provider is enabled (404 otherwise).
import { AppError } from '../../errors.js';
import { defineRawRoute } from '../../http/raw-routes.js';
import { appErrorResponse } from '../../http/rest-errors.js';
import { OFFLINE_CHALLENGE_PATH, OfflinePaymentProvider } from './offline.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

defineRawRoute({
  method: 'GET',
  path: OFFLINE_CHALLENGE_PATH.replace(/^\/api/, ''),
  access: 'public',
  openapi: {
    operationId: 'paymentOfflineChallenge',
    summary: "The offline payment provider's 3-D Secure challenge page (development and tests)",
    description:
      "Without result: an HTML page with Complete and Fail links. With result=succeeded|failed: 302 to the checkout's returnUrl with payment_intent and offline_result. 404 when the offline provider is not enabled or the reference does not wait for a challenge.",
    tags: ['payments'],
    parameters: [
      { name: 'reference', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'result', in: 'query', required: false, schema: { type: 'string', enum: ['succeeded', 'failed'] } },
    ],
    responses: {
      200: { description: 'The challenge page', content: { 'text/html': { schema: { type: 'string' } } } },
      302: { description: 'Back to the return URL' },
      404: { description: 'Not enabled, or nothing to challenge (NOT_FOUND)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } },
    },
  },
  async handle(ctx) {
    const offline = ctx.services.payments.providers.get('offline');
    const url = new URL(ctx.request.url);
    const reference = url.searchParams.get('reference') ?? '';
    const returnUrl = offline instanceof OfflinePaymentProvider ? offline.returnUrlOf(reference) : null;
    if (!returnUrl) return appErrorResponse(new AppError('NOT_FOUND', 'No offline payment waits for a challenge with this reference'));
    const result = url.searchParams.get('result');
    if (result === 'succeeded' || result === 'failed') {
      const back = new URL(returnUrl);
      back.searchParams.set('payment_intent', reference);
      back.searchParams.set('offline_result', result);
      return new Response(null, { status: 302, headers: { location: back.toString() } });
    }
    const link = (r: string) => `${escapeHtml(url.pathname)}?reference=${encodeURIComponent(reference)}&amp;result=${r}`;
    const html = `<!doctype html><meta charset="utf-8"><title>Offline 3-D Secure</title><h1>Offline 3-D Secure challenge</h1><p>Payment ${escapeHtml(reference)}</p><p><a href="${link('succeeded')}">Complete</a> · <a href="${link('failed')}">Fail</a></p>`;
    return new Response(html, {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'", 'x-content-type-options': 'nosniff' },
    });
  },
});
