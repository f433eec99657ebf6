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
function storeScope(context: { ctx?: RequestContext } | undefined): string {
  const ctx = context?.ctx;
  return `${ctx?.organization.id ?? '-'}|${ctx?.rateLimit?.caller ?? '-'}`;
}

export function useAutomaticPersistedQueries(options: { maxEntries?: number } = {}): Plugin<Record<string, unknown>, { ctx?: RequestContext }> {
  const max = options.maxEntries ?? APQ_MAX_ENTRIES;
  const store = new Map<string, string>();
  const remember = (key: string, query: string) => {
    store.delete(key);
    store.set(key, query);
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    if (store.size > max) store.delete(store.keys().next().value!);
  };
  return {
    onParams({ params, setParams, context }) {
      const persisted = (params.extensions as { persistedQuery?: PersistedQueryExtension } | undefined)?.persistedQuery;
      if (!persisted) return;
      if (persisted.version !== 1 || typeof persisted.sha256Hash !== 'string' || !/^[0-9a-f]{64}$/i.test(persisted.sha256Hash)) {
        throw apqError('Unsupported persisted query: send version 1 with a sha256Hash of 64 hex digits', 'PERSISTED_QUERY_INVALID');
      }
      const hash = persisted.sha256Hash.toLowerCase();
      const key = `${storeScope(context)}|${hash}`;
      if (params.query) {
        if (createHash('sha256').update(params.query).digest('hex') !== hash) {
          throw apqError('provided sha does not match query', 'PERSISTED_QUERY_HASH_MISMATCH');
        }
        remember(key, params.query);
        return;
      }
      const query = store.get(key);
      if (query === undefined) throw apqError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
      remember(key, query); // most recently used stays longest
      setParams({ ...params, query });
    },
  };
}
