// CORS for every route alike. Only trusted origins get CORS headers (with credentials, so a
// trusted storefront can use the session cookie); other origins get none and the browser
// keeps the response from their scripts.
const ALLOWED_HEADERS = 'content-type, authorization, x-api-key, x-request-id, x-cart-token';
const EXPOSED_HEADERS = 'x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after';

export function corsHeaders(request: Request, trusted: ReadonlySet<string>): Record<string, string> {
  const origin = request.headers.get('origin');
  if (!origin || !trusted.has(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin',
  };
}

export function preflightResponse(request: Request, trusted: ReadonlySet<string>): Response {
  const headers = corsHeaders(request, trusted);
  if (headers['access-control-allow-origin']) {
    headers['access-control-allow-methods'] = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
    headers['access-control-allow-headers'] = ALLOWED_HEADERS;
    headers['access-control-max-age'] = '600';
  }
  return new Response(null, { status: 204, headers });
}
