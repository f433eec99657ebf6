// Input rules enforced once, at the edge, for every route:
//  - NUL characters. PostgreSQL text cannot hold U+0000, so a NUL in a path segment, a query
//    value, a JSON string (or a GraphQL string literal) or a form value used to reach the
//    database and come back as a 500. Any of them is 422 VALIDATION_FAILED naming where it was.
//  - The sign-in budget's key: the email of a sign-in or sign-up, read from every content type
//    better-auth accepts (JSON and form-urlencoded); other content types are refused there, so
//    no body shape can slip past the per-email budget.
import { AppError } from '../errors.js';
import { nulPathParam } from './path-params.js';

const NUL_ESCAPE = /\\u0000/i;

function nulIssue(field: string) {
  return new AppError('VALIDATION_FAILED', 'Input validation failed', [{ field, message: 'must not contain NUL (U+0000) characters' }]);
}

/** Path of the first string holding a NUL, in a parsed JSON value. */
function findNul(value: unknown, path: string, graphqlQuery: boolean): string | null {
  if (typeof value === 'string') return value.includes('\u0000') || (graphqlQuery && NUL_ESCAPE.test(value)) ? path || '(body)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}${path ? '.' : ''}${i}`, false);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key.includes('\u0000')) return `${path}${path ? '.' : ''}${key.replace(/\u0000/g, '\\u0000')}`;
      // A GraphQL document carries its own string escapes: "\u0000" inside `query` is a NUL too.
      const found = findNul(v, `${path}${path ? '.' : ''}${key}`, path === '' && key === 'query');
      if (found) return found;
    }
  }
  return null;
}

/**
 * Throws 422 when the request carries a NUL anywhere it could reach the database. Reads the body
 * only when its bytes contain a NUL or a `\u0000` escape, so ordinary requests pay one scan.
 */
export async function rejectNulCharacters(request: Request, url: URL): Promise<void> {
  if (/%00/.test(url.pathname)) throw nulIssue(nulPathParam(request.method, url.pathname) ?? '(path)');
  if (/%00/.test(url.search)) {
    for (const [key, value] of url.searchParams) if (value.includes('\u0000') || key.includes('\u0000')) throw nulIssue(key.replace(/\u0000/g, ''));
  }
  if (!request.body || request.method === 'GET' || request.method === 'HEAD') return;
  const type = request.headers.get('content-type') ?? '';
  const textual = type.includes('json') || type.includes('x-www-form-urlencoded') || type.startsWith('text/') || type.includes('graphql');
  if (!textual) return; // multipart uploads and binary bodies are checked by their own routes
  const text = await request.clone().text();
  const hasRaw = text.includes('\u0000');
  if (!hasRaw && !NUL_ESCAPE.test(text) && !/%00/.test(text)) return;
  if (type.includes('x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(text)) if (value.includes('\u0000') || key.includes('\u0000')) throw nulIssue(key.replace(/\u0000/g, ''));
    return;
  }
  if (type.includes('json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // malformed JSON gets its own 400 further on
    }
    const found = findNul(parsed, '', false);
    if (found) throw nulIssue(found);
    return;
  }
  if (hasRaw) throw nulIssue('(body)');
}

/** Content types the sign-in and sign-up endpoints accept (better-auth parses both). */
const SIGN_IN_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

/**
 * The email a sign-in or sign-up names, lower-cased, for the per-email budget; null when the
 * body has none (better-auth then refuses it). Other content types: 415.
 */
export async function signInEmail(request: Request): Promise<string | null> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!SIGN_IN_TYPES.includes(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the body as ${SIGN_IN_TYPES.join(' or ')}`);
  }
  const text = await request.clone().text();
  let email: unknown;
  if (type === 'application/json') {
    try {
      email = (JSON.parse(text) as { email?: unknown } | null)?.email;
    } catch {
      return null;
    }
  } else {
    email = new URLSearchParams(text).get('email');
  }
  return typeof email === 'string' ? email.trim().toLowerCase() : null;
}
