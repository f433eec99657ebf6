// Mutating browser requests (POST, PUT, PATCH, DELETE) that carry cookies must come from a
// trusted origin: that is what stops cross-site request forgery against the session cookie.
// API-key requests are exempt (no ambient credential), and so are requests without cookies
// (bearer tokens and anonymous calls cannot be forged by another site).
import { API_KEY_HEADER } from '../auth/better-auth.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(value: string | null): string | null {
  if (!value || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** Null when allowed; otherwise the reason for a 403. */
export function originRefusal(request: Request, trusted: ReadonlySet<string>): string | null {
  if (!MUTATING.has(request.method)) return null;
  if (request.headers.has(API_KEY_HEADER) || !request.headers.has('cookie')) return null;
  // Browsers send Origin on every cross-site and same-origin POST; Referer is the fallback.
  const origin = originOf(request.headers.get('origin')) ?? originOf(request.headers.get('referer'));
  if (!origin) return 'a cookie-authenticated request must carry an Origin header';
  return trusted.has(origin) ? null : `origin ${origin} is not in trustedOrigins`;
}

/**
 * A request with neither cookies nor Origin/Referer is not a browser acting for a signed-in user:
 * browsers send Origin on every POST (same-site ones included), and such a request carries no
 * ambient credential another site could borrow. Servers, mobile apps and Node's fetch are such
 * clients; but Node's fetch (undici) adds `Sec-Fetch-Mode: cors`, and better-auth reads any
 * fetch-metadata header as "a browser" and then demands an Origin (403 MISSING_OR_NULL_ORIGIN on
 * sign-up and sign-in). Those headers are dropped for these requests only, before better-auth sees
 * them; a cookie-carrying or Origin-carrying request reaches better-auth unchanged, so its own
 * checks (and ours above) still refuse cookie writes and navigations from untrusted origins.
 */
export async function withoutFetchMetadataForCredentiallessClient(request: Request): Promise<Request> {
  if (!MUTATING.has(request.method) || request.headers.has('cookie') || request.headers.has('origin') || request.headers.has('referer')) return request;
  const names = [...request.headers.keys()].filter((name) => name.startsWith('sec-fetch-'));
  if (!names.length) return request;
  const headers = new Headers(request.headers);
  for (const name of names) headers.delete(name);
  // A new Request over the buffered body (auth bodies are small): re-wrapping the stream would need duplex.
  return new Request(request.url, { method: request.method, headers, body: await request.arrayBuffer(), signal: request.signal });
}
