// HTTP semantics that save whole requests: every successful GET/HEAD answer carries a strong
// ETag over its body, a matching If-None-Match gets 304 without a body (RFC 9110 §13.1.2), and
// catalog reads by a storefront (publishable, same answer for every shopper holding the key) or
// by nobody are cacheable by shared caches for a short while, so a CDN in front can absorb
// storefront traffic. Answers that depend on who asks (admin keys, users) stay `private`.
import crypto from 'node:crypto';
import type { HeaderSet } from './answer-headers.js';

/** Seconds a shared cache may serve an anonymous catalog read without asking again. */
export const PUBLIC_CATALOG_MAX_AGE = 60;

/** Bodies larger than this (PDF invoices, the reference bundle) are passed through untagged. */
const MAX_TAGGED_BYTES = 4 * 1024 * 1024;

export interface ConditionalInput {
  method: string;
  path: string;
  ifNoneMatch: string | null;
  /** Anonymous, or a storefront API key without a user session: the same answer for everyone holding it. */
  shareable: boolean;
}

/**
 * Answers whose body bytes and ETag are already known (a response-cache hit: http/app.ts), so
 * conditional() neither reads nor hashes the body again. Hashing and encoding a list page of
 * ~100 KB on every hit was a third of a hit's CPU (bench/profile.ts cached).
 */
const knownBodies = new WeakMap<Response, { body: Uint8Array<ArrayBuffer>; etag: string }>();

/** Marks `response` as carrying `body` (its bytes, to send as they are) with this ETag. */
export function withKnownBody(response: Response, body: Uint8Array<ArrayBuffer>, etag: string): Response {
  knownBodies.set(response, { body, etag });
  return response;
}

export function etagFor(body: Uint8Array): string {
  // sha1 is a content fingerprint here, not a security boundary; it is the cheapest of
  // node's hashes on short bodies. The one-shot hash() skips the Hash object createHash builds
  // (about 5× less CPU for a body of a few hundred bytes, measured on Node 20; Node 20.11, which
  // package.json still admits, has no hash() and takes the Hash object).
  const tag = crypto.hash ? crypto.hash('sha1', body, 'base64url') : crypto.createHash('sha1').update(body).digest('base64url');
  return `"${tag}"`;
}

/**
 * Whether the answer has a body (a null body is passed through untagged). A GET answer with a
 * positive Content-Length has one, and `response.body` is not asked: on whatwg-node's Response
 * (sofa's Response.json, Yoga's) that getter builds a stream over a fresh UTF-8 encoding of the
 * whole JSON text, which bodyBytes() then encodes once more (about half of the ETag's cost on
 * a ~110 KB list page).
 */
function hasBody(method: string, response: Response, headers: HeaderSet): boolean {
  if (method === 'GET' && Number(headers.get('content-length')) > 0) return true;
  return response.body !== null;
}

/**
 * The body's bytes, read once. whatwg-node's arrayBuffer() resolves to the Buffer it encoded
 * (typed as an ArrayBuffer): wrapping that in a new Uint8Array would copy it; it is already one.
 */
async function bodyBytes(response: Response): Promise<Uint8Array<ArrayBuffer>> {
  const read: ArrayBuffer | Uint8Array<ArrayBuffer> = await response.arrayBuffer();
  return read instanceof Uint8Array ? read : new Uint8Array(read);
}

/** RFC 9110 §13.1.2: weak comparison, a list of tags or `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

function isPublicCatalogRead(path: string): boolean {
  return (
    path === '/api/catalog/entities' ||
    path.startsWith('/api/catalog/entities/') ||
    path === '/api/catalog/categories' ||
    path.startsWith('/api/catalog/categories/') ||
    path === '/api/catalog/brands' ||
    path.startsWith('/api/catalog/brands/')
  );
}

/**
 * Adds ETag / Cache-Control to a successful GET answer and turns it into 304 when the client
 * already holds it. `headers` are the final headers the answer will carry (mutated in place).
 * The body to send: its bytes, null (304), or `undefined` when the answer is not tagged and its
 * body is the response's own, still unread.
 */
export async function conditional(input: ConditionalInput, response: Response, headers: HeaderSet): Promise<{ status: number; body: Uint8Array<ArrayBuffer> | null | undefined }> {
  const known = knownBodies.get(response);
  const eligible =
    (input.method === 'GET' || input.method === 'HEAD') &&
    response.status === 200 &&
    (known !== undefined || hasBody(input.method, response, headers)) &&
    !headers.has('etag') &&
    !(headers.get('content-type') ?? '').startsWith('text/event-stream') &&
    (input.path.startsWith('/api/') || input.path === '/graphql') &&
    !input.path.startsWith('/api/auth/') &&
    !headers.has('set-cookie');
  // Not tagged: `undefined` leaves the response's own body unread (its getter would build a
  // stream over a fresh encoding of the JSON text, which the sender then encodes again).
  if (!eligible) return { status: response.status, body: known ? known.body : undefined };
  let body: Uint8Array<ArrayBuffer>;
  let etag: string;
  if (known) ({ body, etag } = known);
  else {
    const length = Number(headers.get('content-length') ?? 0);
    if (length > MAX_TAGGED_BYTES) return { status: response.status, body: undefined };
    body = await bodyBytes(response);
    if (body.byteLength > MAX_TAGGED_BYTES) return { status: response.status, body };
    etag = etagFor(body);
  }
  headers.set('etag', etag);
  if (!headers.has('cache-control')) {
    headers.set('cache-control', input.shareable && isPublicCatalogRead(input.path) ? `public, max-age=${PUBLIC_CATALOG_MAX_AGE}` : 'private, no-cache');
    // A shared cache keys the answer by the credential: another key (an admin key also sees
    // unpublished entities) or a session never gets this one.
    if (input.shareable && isPublicCatalogRead(input.path)) headers.append('vary', 'authorization, x-api-key, cookie');
  }
  if (input.ifNoneMatch && matches(input.ifNoneMatch, etag)) {
    // A 304 carries the validators and caching headers, never the body or its length.
    headers.delete('content-length');
    headers.delete('content-type');
    return { status: 304, body: null };
  }
  return { status: 200, body };
}
