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
