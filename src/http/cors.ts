// CORS for every route alike. Origins listed in `cors.origins` (CORS_ORIGINS) and the
// cookie-trusted `auth.trustedOrigins` (TRUSTED_ORIGINS) get CORS headers, with credentials so a
// storefront on another origin can send its x-api-key, a bearer token or the session cookie;
// other origins get none and the browser keeps the response from their scripts. Trusted origins
// are merged in because a page allowed to write with the session cookie must also pass CORS;
// the reverse does not hold: a CORS-only origin reads and writes with keys and bearer tokens,
// and a cookie-carrying write from it is still refused (http/origin-check.ts).
/** What a storefront sends: its key, the shopper's bearer token, checkout's idempotency key, ETag revalidation. */
export const ALLOWED_HEADERS = 'content-type, authorization, x-api-key, idempotency-key, x-request-id, x-cart-token, if-none-match';
export const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const EXPOSED_HEADERS = 'x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after, etag, location';
/** How long a browser may reuse a preflight answer (seconds; Chromium caps it at 7200). */
const MAX_AGE_SECONDS = '600';

/** The origins that get CORS headers: cors.origins plus the cookie-trusted ones. */
export function corsOrigins(origins: readonly string[], trusted: Iterable<string>): ReadonlySet<string> {
  const out = new Set<string>();
  for (const origin of [...origins, ...trusted]) {
    try {
      out.add(new URL(origin).origin);
    } catch {
      // config validation rejects malformed origins; a bare string here is ignored, not fatal
    }
  }
  return out;
}

export function corsHeaders(request: Request, allowed: ReadonlySet<string>): Record<string, string> {
  const origin = request.headers.get('origin');
  if (!origin || !allowed.has(origin)) return origin ? { vary: 'Origin' } : {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin',
  };
}

export function preflightResponse(request: Request, allowed: ReadonlySet<string>): Response {
  const headers = corsHeaders(request, allowed);
  if (headers['access-control-allow-origin']) {
    headers['access-control-allow-methods'] = ALLOWED_METHODS;
    headers['access-control-allow-headers'] = ALLOWED_HEADERS;
    headers['access-control-max-age'] = MAX_AGE_SECONDS;
  }
  return new Response(null, { status: 204, headers });
}
