// The response cache at the HTTP layer (http/app.ts): decides whether a request may be answered
// from the cache (key.ts), answers a hit with `x-cache: hit`, and stores a miss's successful
// answer. ETag / 304 stay with conditional.ts, which runs on the final answer either way (a hit's
// body is byte-identical, so is its ETag).
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../observability/metrics.js';
import { etagFor, withKnownBody } from '../http/conditional.js';
import { bufferedText } from '../http/body.js';
import { cacheableHeaders, createResponseCache, type CachedAnswer, type ResponseCache } from './response-cache.js';
import { graphqlKey, isCacheableRestPath, PersistedCatalogDocuments, restKey, type CacheCaller } from './key.js';

export interface CacheLookup {
  organizationId: string;
  key: string;
  generation: number;
}

export interface HttpResponseCache {
  /** A cacheable request's key, or null (not a cacheable read, or not a shareable caller). */
  lookup(request: Request, url: URL, caller: CacheCaller | null): Promise<CacheLookup | null>;
  hit(lookup: CacheLookup): Promise<Response | null>;
  /** Stores a miss's answer when it is a success worth keeping; returns the answer to send. */
  store(lookup: CacheLookup, response: Response): Promise<Response>;
  invalidate(organizationId: string): Promise<void>;
  close(): Promise<void>;
}

interface GraphqlParams {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: { persistedQuery?: { version?: unknown; sha256Hash?: unknown } };
}

function paramsFromQueryString(url: URL): GraphqlParams | null {
  const json = (name: string) => {
    const raw = url.searchParams.get(name);
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return null;
    }
  };
  return {
    query: url.searchParams.get('query') ?? undefined,
    operationName: url.searchParams.get('operationName') ?? undefined,
    variables: json('variables'),
    extensions: json('extensions') as GraphqlParams['extensions'],
  };
}

async function graphqlParams(request: Request, url: URL): Promise<GraphqlParams | null> {
  if (request.method === 'GET') return paramsFromQueryString(url);
  if (request.method !== 'POST' || !(request.headers.get('content-type') ?? '').startsWith('application/json')) return null;
  // The bytes readBody buffered (http/body.ts); a copy of the body stream only for a request it did not read.
  const text = bufferedText(request) ?? (await request.clone().text());
  if (!text.includes('persistedQuery')) return null; // the common case, without parsing
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as GraphqlParams) : null;
  } catch {
    return null;
  }
}

/** Memoized REST keys kept at most (then the memo starts over): bounds what distinct URLs can hold. */
const MAX_MEMOIZED_KEYS = 10_000;
/** Persisted-query bodies longer than this (a registration with its document) are not memoized. */
const MAX_MEMOIZED_BODY = 2048;

export function createHttpResponseCache(deps: {
  config: Config;
  databaseUrl: string;
  logger: Logger;
  metrics: Metrics | null;
  fetchAPI: { Headers: typeof Headers; Response: typeof Response };
}): HttpResponseCache | null {
  const { config } = deps;
  if (!config.cache.enabled) return null;
  const cache: ResponseCache = createResponseCache({
    ttlSeconds: config.cache.ttlSeconds,
    maxEntries: config.cache.maxEntries,
    keyPrefix: config.cache.keyPrefix,
    redisUrl: config.redisUrl,
    listenUrl: deps.databaseUrl, // the direct URL (app.ts directUrl): LISTEN needs a session
    logger: deps.logger,
    metrics: deps.metrics,
  });
  const documents = new PersistedCatalogDocuments();
  /**
   * REST keys by caller kind and URL: a storefront asks for the same few pages over and over, and
   * canonicalizing and hashing the query on each hit was ~7% of a hit's CPU (bench/profile.ts cached).
   */
  const restKeys = new Map<string, string>();
  /** Persisted GraphQL keys by caller kind, Accept and body (lookup), with the document's hash. */
  const graphqlKeys = new Map<string, { hash: string; key: string }>();
  /**
   * Each kept answer's bytes and ETag, made on its first hit and reused by the next ones (the
   * LRU hands back the same entry object until it is dropped, and the map lets go with it).
   */
  const encoded = new WeakMap<CachedAnswer, { bytes: Uint8Array<ArrayBuffer>; etag: string }>();

  return {
    async lookup(request, url, caller) {
      if (!caller) return null;
      let key: string | null = null;
      if (url.pathname === '/graphql') {
        // A storefront sends the same few hash-only bodies over and over: their keys by caller
        // kind, Accept and body, while the hash stays known as a catalog document.
        const body = request.method === 'POST' ? bufferedText(request) : null;
        const memo = body !== null && body.length <= MAX_MEMOIZED_BODY ? `${caller.kind}\n${request.headers.get('accept') ?? ''}\n${body}` : null;
        const remembered = memo === null ? undefined : graphqlKeys.get(memo);
        if (remembered && documents.cacheable(remembered.hash)) {
          return { organizationId: caller.organizationId, key: remembered.key, generation: cache.generation(caller.organizationId) };
        }
        const params = await graphqlParams(request, url);
        const hash = params?.extensions?.persistedQuery?.sha256Hash;
        if (!params || typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return null;
        const cacheable = typeof params.query === 'string' ? documents.learn(hash, params.query) : documents.cacheable(hash);
        if (!cacheable) return null;
        const variables = params.variables && typeof params.variables === 'object' ? (params.variables as Record<string, unknown>) : {};
        key = graphqlKey(caller, hash, params.operationName, variables, request.headers.get('accept'));
        if (memo !== null) {
          if (graphqlKeys.size >= MAX_MEMOIZED_KEYS) graphqlKeys.clear();
          graphqlKeys.set(memo, { hash, key });
        }
      } else if (request.method === 'GET' && isCacheableRestPath(url.pathname)) {
        // restKey depends on the caller's kind and the URL's path and query only.
        const memo = `${caller.kind} ${url.pathname}${url.search}`;
        key = restKeys.get(memo) ?? null;
        if (key === null) {
          key = restKey(caller, url);
          if (restKeys.size >= MAX_MEMOIZED_KEYS) restKeys.clear();
          restKeys.set(memo, key);
        }
      }
      if (!key) return null;
      return { organizationId: caller.organizationId, key, generation: cache.generation(caller.organizationId) };
    },
    async hit(lookup) {
      const found = await cache.get(lookup.organizationId, lookup.key);
      if (!found) return null;
      let ready = encoded.get(found.answer);
      if (!ready) {
        const bytes = Buffer.from(found.answer.body);
        ready = { bytes, etag: etagFor(bytes) };
        encoded.set(found.answer, ready);
      }
      // whatwg-node's Headers (the adapter's: serve() copies them cheaply, where undici's
      // validate every name and value) write set() into the array they were made from: each
      // answer gets its own copy of the kept pairs, or every later hit would carry this one's.
      const headers = new deps.fetchAPI.Headers(found.answer.headers.map(([name, value]): [string, string] => [name, value]));
      headers.set('x-cache', 'hit');
      // The body travels as known bytes (http/conditional.ts), not as a stream to read again.
      return withKnownBody(new deps.fetchAPI.Response(null, { status: 200, headers }), ready.bytes, ready.etag);
    },
    async store(lookup, response) {
      const headers = new Headers(response.headers);
      headers.set('x-cache', 'miss');
      if (response.status !== 200 || !(headers.get('content-type') ?? '').includes('json')) {
        return new Response(response.body, { status: response.status, headers });
      }
      const body = await response.text();
      // A GraphQL answer with errors (a field failed, the database blinked) is not kept.
      if (!body.includes('"errors"')) cache.set(lookup.organizationId, lookup.key, lookup.generation, { body, headers: cacheableHeaders(response.headers) });
      return new Response(body, { status: 200, headers });
    },
    invalidate: (organizationId) => cache.invalidate(organizationId),
    close: () => cache.close(),
  };
}
