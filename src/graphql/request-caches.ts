// What an execution leaves in a library's module-level WeakMap, dropped when it is done.
//
// scope-auth keeps each request's scopes and grants in a WeakMap keyed by the GraphQL context
// (RequestCache, through Pothos' createContextCache), and the cache it stores references that
// context. A long-lived WeakMap's table sits in V8's old generation; storing a value in it records
// an old-to-young pointer, and V8's young-generation collector (the scavenger) treats those as
// roots: the value, the context it references and everything the context reaches (the request,
// its loaders, its rows, its answer) survive every scavenge until a full mark-compact clears the
// entry. So each request's whole object graph was copied twice and promoted (~5 KB of a settings
// read, all of its request), then freed by full collections (`node --trace-gc-nvp`: `promoted=`
// per scavenge; bench/promotion.ts). Deleting the entry once execution has finished
// leaves the table nothing that points into the young generation, and the request's objects die
// young, as garbage should. The cache is a memo (scopes are evaluated from the context again when
// asked), so a late reader gets a fresh one rather than a wrong answer.
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { RequestCache } from '@pothos/plugin-scope-auth';

/** Drops the per-request caches libraries keep for this GraphQL context. */
export function releaseRequestCaches(contextValue: unknown): void {
  if (contextValue !== null && typeof contextValue === 'object') RequestCache.clearForContext(contextValue);
}

/**
 * /graphql's executions release their caches when done. A streamed result (a subscription) still
 * resolves fields after onExecuteDone, so its entry is left to the WeakMap, as before.
 */
export function useRequestCacheRelease(): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          if (!isAsyncIterable(result)) releaseRequestCaches(args.contextValue);
        },
      };
    },
  };
}
