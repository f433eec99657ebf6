// Which of better-auth's HTTP endpoints the server exposes under /api/auth. better-auth mounts
// every endpoint of every plugin it is given, including ones that must never face the public:
// its API-key plugin's `/api-key/create` lets any signed-in user mint a key for any organization
// and scope, and `/api-key/update` rewrites a key's metadata. So the list is closed: an endpoint
// answers only when it is named here, with the reason it is safe for the caller it serves;
// everything else under /api/auth is 404. Keys are minted by `commerce api-keys create` (and by
// plugins through src/auth/accounts.ts `mintApiKey`), which check the organization themselves.
import type { Config } from '../config/index.js';

export interface ExposedEndpoint {
  method: 'GET' | 'POST';
  /** Path below /api/auth; `:name` matches one segment. */
  path: string;
  /** Who it serves and why that is safe. */
  why: string;
  /** Exposed only when the feature is configured. */
  when?: (config: Config) => boolean;
}

const twoFactor = (config: Config) => config.auth.twoFactor.enabled;
const social = (config: Config) => Boolean(config.auth.socialProviders.google || config.auth.socialProviders.github);

export const EXPOSED_AUTH_ENDPOINTS: readonly ExposedEndpoint[] = [
  { method: 'POST', path: '/sign-up/email', why: 'public sign-up; role and organization are set by the server (input: false), never by the body' },
  { method: 'POST', path: '/sign-in/email', why: 'sign-in; rate-limited per email address' },
  { method: 'POST', path: '/sign-out', why: "ends the caller's own session" },
  { method: 'GET', path: '/get-session', why: "reads the caller's own session" },
  { method: 'GET', path: '/list-sessions', why: "the caller's own sessions (devices), without their bearer tokens (http/auth-sessions.ts)" },
  { method: 'POST', path: '/revoke-session', why: "ends one of the caller's own sessions, named by id or token (better-auth checks the owner)" },
  { method: 'POST', path: '/revoke-sessions', why: "ends all of the caller's own sessions" },
  { method: 'POST', path: '/revoke-other-sessions', why: "ends the caller's other sessions" },
  { method: 'POST', path: '/change-password', why: "the caller's own password; needs the current one" },
  { method: 'POST', path: '/change-email', why: "the caller's own email; the change is confirmed through a link mailed to the new address" },
  { method: 'POST', path: '/request-password-reset', why: 'mails a reset link; answers the same whether or not the email exists' },
  { method: 'GET', path: '/reset-password/:token', why: 'the mailed link; redirects to the reset page with the token' },
  { method: 'POST', path: '/reset-password', why: 'sets a new password with a valid, single-use reset token' },
  { method: 'GET', path: '/verify-email', why: 'the mailed verification link (signed token)' },
  { method: 'POST', path: '/send-verification-email', why: 'mails a new verification link to an unverified address' },
  { method: 'GET', path: '/ok', why: 'liveness of the auth handler; no data' },
  { method: 'GET', path: '/error', why: 'the error page OAuth flows redirect to; no data' },
  { method: 'POST', path: '/sign-in/social', why: 'starts an OAuth sign-in with a configured provider', when: social },
  { method: 'GET', path: '/callback/:provider', why: "the provider's redirect back (state checked by better-auth)", when: social },
  { method: 'POST', path: '/callback/:provider', why: 'form_post variant of the OAuth callback', when: social },
  { method: 'POST', path: '/two-factor/enable', why: "enrols the caller's own account; needs the password", when: twoFactor },
  { method: 'POST', path: '/two-factor/disable', why: "the caller's own account; needs the password", when: twoFactor },
  { method: 'POST', path: '/two-factor/get-totp-uri', why: "the caller's own TOTP URI; needs the password", when: twoFactor },
  { method: 'POST', path: '/two-factor/verify-totp', why: 'completes a sign-in (two-factor cookie) or an enrolment', when: twoFactor },
  { method: 'POST', path: '/two-factor/generate-backup-codes', why: "the caller's own backup codes; needs the password", when: twoFactor },
  { method: 'POST', path: '/two-factor/verify-backup-code', why: 'completes a sign-in with a backup code', when: twoFactor },
];

/**
 * Deliberately not exposed (kept here so a reviewer sees each was decided, and a test checks
 * each answers 404): the API-key plugin's endpoints (minting is an operator action), account
 * deletion (orders and invoices reference the customer; deletion is an admin process), linking
 * and unlinking OAuth accounts and reading provider tokens (`/get-access-token`,
 * `/refresh-token`, `/account-info`, `/list-accounts`: they hand out third-party tokens),
 * `/update-user` (profile changes go through `/api/me/profile`, which validates them),
 * `/update-session` and `/verify-password` (a password oracle for a stolen session), and
 * two-factor email OTP (no OTP transport is configured; TOTP and backup codes are).
 */
export const HIDDEN_AUTH_ENDPOINTS: ReadonlyArray<{ method: 'GET' | 'POST'; path: string }> = [
  { method: 'POST', path: '/api-key/create' },
  { method: 'POST', path: '/api-key/update' },
  { method: 'POST', path: '/api-key/delete' },
  { method: 'GET', path: '/api-key/get' },
  { method: 'GET', path: '/api-key/list' },
  { method: 'POST', path: '/delete-user' },
  { method: 'GET', path: '/delete-user/callback' },
  { method: 'POST', path: '/link-social' },
  { method: 'POST', path: '/unlink-account' },
  { method: 'GET', path: '/list-accounts' },
  { method: 'GET', path: '/account-info' },
  { method: 'POST', path: '/get-access-token' },
  { method: 'POST', path: '/refresh-token' },
  { method: 'POST', path: '/update-user' },
  { method: 'POST', path: '/update-session' },
  { method: 'POST', path: '/verify-password' },
  { method: 'POST', path: '/get-session' },
  { method: 'POST', path: '/two-factor/send-otp' },
  { method: 'POST', path: '/two-factor/verify-otp' },
];

function matches(pattern: string, path: string): boolean {
  const a = pattern.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((segment, i) => (segment.startsWith(':') ? b[i] !== '' : segment === b[i]));
}

/** Whether `METHOD /api/auth<subpath>` is served. HEAD counts as GET. */
export function isExposedAuthEndpoint(config: Config, method: string, subpath: string): boolean {
  const m = method === 'HEAD' ? 'GET' : method;
  const path = subpath.length > 1 && subpath.endsWith('/') ? subpath.slice(0, -1) : subpath;
  return EXPOSED_AUTH_ENDPOINTS.some((e) => e.method === m && matches(e.path, path) && (!e.when || e.when(config)));
}
