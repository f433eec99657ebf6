// Which rate budget an /api/auth request spends, and the body better-auth then reads.
//  - Endpoints that name an email (sign-in, sign-up, reset and verification mails) spend the
//    client address's `authAddress` budget (password spraying across many accounts) and that
//    email's `signIn` budget (guessing one account's password, flooding one inbox, from any
//    number of addresses).
//  - Endpoints that check the caller's current password (change-password, two-factor) are a
//    password oracle for a stolen session: they spend the same `signIn` budget as signing in to
//    that account does.
//  - Everything else spends the address's `anonymous` budget.
// The email is read from the body once, here, and better-auth is handed that parsed body again
// as canonical JSON: a limiter and a handler that each parse the bytes disagree on some body
// (a form naming `email` twice: URLSearchParams.get reads the first, better-call the last; a
// UTF-8 byte-order mark: better-call skips it, JSON.parse of the text does not), and each
// disagreement was a way past the per-email budget.
import { AppError } from '../errors.js';
import type { RateDecision, Budget } from './rate-limit.js';

const EMAIL_BUDGET_PATHS = new Set(['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/request-password-reset', '/api/auth/send-verification-email']);

/** Endpoints that verify the signed-in user's current password. */
const PASSWORD_PATHS = new Set([
  '/api/auth/change-password',
  '/api/auth/two-factor/enable',
  '/api/auth/two-factor/disable',
  '/api/auth/two-factor/get-totp-uri',
  '/api/auth/two-factor/generate-backup-codes',
]);

/** Content types the email endpoints accept (better-auth parses both). */
const EMAIL_BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

function badBody(message: string): AppError {
  return new AppError('BAD_REQUEST', message);
}

/** The body's fields: a JSON object, or a form in which no field is named twice. */
async function bodyFields(request: Request, type: string): Promise<Record<string, unknown>> {
  // TextDecoder drops one leading byte-order mark, as better-call's request.json() does.
  const text = new TextDecoder().decode(await request.arrayBuffer());
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badBody('Invalid JSON in request body');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badBody('The body must be a JSON object');
    return parsed as Record<string, unknown>;
  }
  // No prototype: a field named __proto__ is a field like any other (and counted when repeated).
  const fields: Record<string, string> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, key)) throw badBody(`Field ${key} is given more than once`);
    fields[key] = value;
  }
  return fields;
}

/**
 * Parses an email endpoint's body once: its email (trimmed, lower-cased, for the budget key; null
 * when it names none, and better-auth then refuses it) and a request carrying exactly those
 * fields as JSON for better-auth. Other content types: 415.
 */
export async function readEmailBody(request: Request): Promise<{ email: string | null; request: Request }> {
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!EMAIL_BODY_TYPES.includes(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the body as ${EMAIL_BODY_TYPES.join(' or ')}`);
  }
  const fields = await bodyFields(request, type);
  const body = new TextEncoder().encode(JSON.stringify(fields));
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.set('content-length', String(body.byteLength));
  const email = typeof fields.email === 'string' ? fields.email.trim().toLowerCase() : null;
  return { email, request: new Request(request.url, { method: request.method, headers, body, signal: request.signal }) };
}

export interface AuthBudgetDeps {
  limit(budget: Budget, key: string): Promise<RateDecision>;
  /** The client address, the key of per-address budgets. */
  address: string;
  /** The email of the user the request's session or key belongs to; null when anonymous. */
  callerEmail(request: Request): Promise<string | null>;
}

/**
 * Spends the budgets an /api/auth request draws on. Returns the decision whose headers the answer
 * carries (refused when any budget is spent) and the request better-auth should handle.
 */
export async function admitAuthRequest(request: Request, path: string, deps: AuthBudgetDeps): Promise<{ rate: RateDecision; request: Request }> {
  if (request.method === 'POST' && EMAIL_BUDGET_PATHS.has(path)) {
    const perAddress = await deps.limit('authAddress', deps.address);
    if (!perAddress.allowed) return { rate: perAddress, request };
    const parsed = await readEmailBody(request);
    return { rate: parsed.email ? await deps.limit('signIn', parsed.email) : perAddress, request: parsed.request };
  }
  if (request.method === 'POST' && PASSWORD_PATHS.has(path)) {
    const email = await deps.callerEmail(request);
    // Without a session better-auth answers 401 before looking at any password.
    if (email) return { rate: await deps.limit('signIn', email), request };
  }
  return { rate: await deps.limit('anonymous', deps.address), request };
}
