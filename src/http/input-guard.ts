// Input rules enforced once, at the edge, for every route:
//  - NUL characters. PostgreSQL text cannot hold U+0000, so a NUL in a path segment, a query
//    value, a JSON string (or a GraphQL string literal) or a form value used to reach the
//    database and come back as a 500. Any of them is 422 VALIDATION_FAILED naming where it was.
//    Multipart bodies are read by their own parsers, which apply the same rule: the upload route
//    (modules/media/upload.ts, assertNoNul) and Yoga (graphql/multipart-nul.ts, findNul).
//  - JSON nesting. A body nested deeper than MAX_JSON_DEPTH is 400 before anything walks it:
//    400,000 levels (an 800 KB body) overflowed the stack of a recursive walk, anonymously.
import { AppError } from '../errors.js';
import { nulPathParam } from './path-params.js';
import { bufferedText } from './body.js';

const NUL_ESCAPE = /\\u0000/i;

/** Levels of arrays and objects a JSON body may nest; real inputs stay far below. */
export const MAX_JSON_DEPTH = 64;

export function nulIssue(field: string): AppError {
  return new AppError('VALIDATION_FAILED', 'Input validation failed', [{ field, message: 'must not contain NUL (U+0000) characters' }]);
}

/** 422 naming `field` when a multipart field's name or value holds a NUL. */
export function assertNoNul(field: string, value: string): void {
  if (field.includes('\u0000') || value.includes('\u0000')) throw nulIssue(field.replaceAll('\u0000', '\\u0000'));
}

/** Whether JSON text nests arrays and objects deeper than `max` (brackets inside strings do not count). */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const join = (path: string, key: string | number) => `${path}${path ? '.' : ''}${key}`;

/** Path of the first string holding a NUL, in a parsed JSON value. Iterative: no depth bounds it. */
export function findNul(root: unknown): string | null {
  const stack: Array<{ value: unknown; path: string; graphqlQuery: boolean }> = [{ value: root, path: '', graphqlQuery: false }];
  while (stack.length) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const { value, path, graphqlQuery } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000') || (graphqlQuery && NUL_ESCAPE.test(value))) return path || '(body)';
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: join(path, i), graphqlQuery: false });
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [key] of entries) if (key.includes('\u0000')) return join(path, key.replaceAll('\u0000', '\\u0000'));
      // A GraphQL document carries its own string escapes: "\u0000" inside `query` is a NUL too.
      for (let i = entries.length - 1; i >= 0; i--)
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        stack.push({ value: entries[i]![1], path: join(path, entries[i]![0]), graphqlQuery: path === '' && entries[i]![0] === 'query' });
    }
  }
  return null;
}

/**
 * Throws 422 when the request carries a NUL anywhere it could reach the database, and 400 when a
 * JSON body nests deeper than MAX_JSON_DEPTH. Parses the body only when its bytes contain a NUL
 * or a `\u0000` escape, so ordinary requests pay one scan (two for JSON).
 */
export async function rejectNulCharacters(request: Request, url: URL): Promise<void> {
  if (/%00/.test(url.pathname)) throw nulIssue(nulPathParam(request.method, url.pathname) ?? '(path)');
  if (/%00/.test(url.search)) {
    for (const [key, value] of url.searchParams) if (value.includes('\u0000') || key.includes('\u0000')) throw nulIssue(key.replaceAll('\u0000', ''));
  }
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const type = request.headers.get('content-type') ?? '';
  const textual = type.includes('json') || type.includes('x-www-form-urlencoded') || type.startsWith('text/') || type.includes('graphql');
  if (!textual) return; // multipart uploads and binary bodies are checked by their own routes
  // The bytes http/body.ts already holds, rather than a clone of the body stream read again.
  // Asked first: reading `request.body` of a buffered request makes a web stream over its bytes
  // (whatwg-node builds it on first access), which nothing here reads.
  const held = bufferedText(request);
  if (held === null && !request.body) return;
  const text = held ?? (await request.clone().text());
  const json = type.includes('json');
  if (json && jsonDeeperThan(text, MAX_JSON_DEPTH)) throw new AppError('BAD_REQUEST', `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`);
  const hasRaw = text.includes('\u0000');
  if (!hasRaw && !NUL_ESCAPE.test(text) && !/%00/.test(text)) return;
  if (type.includes('x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(text)) if (value.includes('\u0000') || key.includes('\u0000')) throw nulIssue(key.replaceAll('\u0000', ''));
    return;
  }
  if (json) {
    let parsed: unknown;
    try {
      // A leading byte-order mark: JSON.parse refuses it, but Request.json() (Yoga, better-call) skips it.
      parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      return; // malformed JSON gets its own 400 further on
    }
    const found = findNul(parsed);
    if (found) throw nulIssue(found);
    return;
  }
  if (hasRaw) throw nulIssue('(body)');
}
