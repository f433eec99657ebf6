// Automatic Persisted Queries (Apollo's protocol, which Apollo Client, urql and graphql-request
// speak): a client sends `extensions.persistedQuery.sha256Hash` without the document; an unknown
// hash answers PERSISTED_QUERY_NOT_FOUND and the client retries once with the document, which is
// then kept under its hash. Hand-written rather than @graphql-yoga/plugin-apq: its only release
// (3.6.2) requires @graphql-tools/utils ^10, which conflicts with the ^11 that sofa and this
// project use. The store is bounded (least recently used out) and per process; a miss only costs
// the client one retry with the full document.
import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const APQ_MAX_ENTRIES = 5000;

interface PersistedQueryExtension {
  version?: unknown;
  sha256Hash?: unknown;
}

function apqError(message: string, code: string): GraphQLError {
  // restStatus marks it as a deliberate client-facing error (not masked); GraphQL answers 200.
  return new GraphQLError(message, { extensions: { code, restStatus: 400 } });
}

export function useAutomaticPersistedQueries(options: { maxEntries?: number } = {}): Plugin {
  const max = options.maxEntries ?? APQ_MAX_ENTRIES;
  const store = new Map<string, string>();
  const remember = (hash: string, query: string) => {
    store.delete(hash);
    store.set(hash, query);
    if (store.size > max) store.delete(store.keys().next().value!);
  };
  return {
    onParams({ params, setParams }) {
      const persisted = (params.extensions as { persistedQuery?: PersistedQueryExtension } | undefined)?.persistedQuery;
      if (!persisted) return;
      if (persisted.version !== 1 || typeof persisted.sha256Hash !== 'string' || !/^[0-9a-f]{64}$/i.test(persisted.sha256Hash)) {
        throw apqError('Unsupported persisted query: send version 1 with a sha256Hash of 64 hex digits', 'PERSISTED_QUERY_INVALID');
      }
      const hash = persisted.sha256Hash.toLowerCase();
      if (params.query) {
        if (createHash('sha256').update(params.query).digest('hex') !== hash) {
          throw apqError('provided sha does not match query', 'PERSISTED_QUERY_HASH_MISMATCH');
        }
        remember(hash, params.query);
        return;
      }
      const query = store.get(hash);
      if (query === undefined) throw apqError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
      remember(hash, query); // most recently used stays longest
      setParams({ ...params, query });
    },
  };
}
