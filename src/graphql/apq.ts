// Automatic Persisted Queries (Apollo's protocol, which Apollo Client, urql and graphql-request
// speak): a client sends `extensions.persistedQuery.sha256Hash` without the document; an unknown
// hash answers PERSISTED_QUERY_NOT_FOUND and the client retries once with the document, which is
// then kept under its hash. Hand-written rather than @graphql-yoga/plugin-apq: its only release
// (3.6.2) requires @graphql-tools/utils ^10, which conflicts with the ^11 that sofa and this
// project use. The store is bounded (least recently used out) and per process; a miss only costs
// the client one retry with the full document.
//
// Entries are kept per organization and caller (API key, user, or client address for anonymous
// callers): with one shared store a miss told anyone whether some other caller had ever sent a
// document, literals included (finding 17). A caller sees only the hashes it registered itself.
import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.js';

export const APQ_MAX_ENTRIES = 5000;

interface PersistedQueryExtension {
  version?: unknown;
  sha256Hash?: unknown;
}

function apqError(message: string, code: string): GraphQLError {
  // restStatus marks it as a deliberate client-facing error (not masked); GraphQL answers 200.
  return new GraphQLError(message, { extensions: { code, restStatus: 400 } });
}

/** Whose entries a request reads and writes. */
function storeScope(ctx: RequestContext | undefined): string {
  return `${ctx?.organization.id ?? '-'}|${ctx?.rateLimit?.caller ?? '-'}`;
}

export interface PersistedQueryParams {
  query?: unknown;
  extensions?: unknown;
}

export interface PersistedQueryStore {
  /**
   * The document a request runs: its own `query` when it persists none, the stored one for a
   * persisted hash (registering a sent document under its hash first). Throws the protocol's
   * refusals (PERSISTED_QUERY_INVALID, _HASH_MISMATCH, _NOT_FOUND) as GraphQL errors.
   */
  resolve(params: PersistedQueryParams, ctx: RequestContext | undefined): unknown;
}

/**
 * One process's store of persisted documents, shared by the Yoga plugin below and /graphql's
 * fast lane (graphql/fast-lane.ts), so a hash registered on one way in answers on the other.
 */
export function createPersistedQueryStore(options: { maxEntries?: number } = {}): PersistedQueryStore {
  const max = options.maxEntries ?? APQ_MAX_ENTRIES;
  const store = new Map<string, string>();
  const remember = (key: string, query: string) => {
    store.delete(key);
    store.set(key, query);
    // biome-ignore lint/style/noNonNullAssertion: the store holds more than max entries here, so it has a first key
    if (store.size > max) store.delete(store.keys().next().value!);
  };
  return {
    resolve(params, ctx) {
      const persisted = (params.extensions as { persistedQuery?: PersistedQueryExtension } | undefined)?.persistedQuery;
      if (!persisted) return params.query;
      if (persisted.version !== 1 || typeof persisted.sha256Hash !== 'string' || !/^[0-9a-f]{64}$/i.test(persisted.sha256Hash)) {
        throw apqError('Unsupported persisted query: send version 1 with a sha256Hash of 64 hex digits', 'PERSISTED_QUERY_INVALID');
      }
      const hash = persisted.sha256Hash.toLowerCase();
      const key = `${storeScope(ctx)}|${hash}`;
      if (params.query) {
        if (typeof params.query !== 'string' || createHash('sha256').update(params.query).digest('hex') !== hash) {
          throw apqError('provided sha does not match query', 'PERSISTED_QUERY_HASH_MISMATCH');
        }
        remember(key, params.query);
        return params.query;
      }
      const query = store.get(key);
      if (query === undefined) throw apqError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
      remember(key, query); // most recently used stays longest
      return query;
    },
  };
}

export function useAutomaticPersistedQueries(store: PersistedQueryStore = createPersistedQueryStore()): Plugin<Record<string, unknown>, { ctx?: RequestContext }> {
  return {
    onParams({ params, setParams, context }) {
      if (!(params.extensions as { persistedQuery?: unknown } | undefined)?.persistedQuery) return;
      const query = store.resolve(params, context?.ctx);
      if (query !== params.query) setParams({ ...params, query: query as string });
    },
  };
}
