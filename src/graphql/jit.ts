// Compiled execution with graphql-jit: a document is compiled once into a JavaScript function that
// resolves and serializes exactly its selection, instead of graphql-js walking the schema for
// every field of every request. It pays for documents that repeat: every REST route (sofa sends
// one fixed document per route), persisted queries, the few documents a storefront sends over and
// over. A document seen for the first time runs on graphql-js and is compiled when it comes back
// (compiling costs more than one execution); one graphql-jit cannot compile stays on graphql-js.
// Documents are keyed by their parsed object, which Yoga's parse cache and sofa keep stable.
// `graphql.jit: false` in the config turns it off.
//
// envelop's @envelop/graphql-jit was not used: on a compile failure it answers the request with
// the compiler's errors instead of falling back, and it compiles every one-off document.
import type { DocumentNode, ExecutionArgs, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

type Entry = CompiledQuery | 'seen' | 'uncompilable';

export function useCompiledExecution(): Plugin {
  const documents = new WeakMap<DocumentNode, Map<string, Entry>>();

  function compiled(args: ExecutionArgs): CompiledQuery | null {
    let byOperation = documents.get(args.document);
    if (!byOperation) documents.set(args.document, (byOperation = new Map()));
    const key = args.operationName ?? '';
    const entry = byOperation.get(key);
    if (entry === undefined) {
      byOperation.set(key, 'seen');
      return null;
    }
    if (entry === 'uncompilable') return null;
    if (entry !== 'seen') return entry;
    const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
    if (!isCompiledQuery(result)) {
      byOperation.set(key, 'uncompilable');
      return null;
    }
    byOperation.set(key, result);
    return result;
  }

  return {
    onExecute({ args, setExecuteFn }) {
      const query = compiled(args);
      if (query) {
        setExecuteFn(((executeArgs: ExecutionArgs) =>
          query.query(executeArgs.rootValue, executeArgs.contextValue, executeArgs.variableValues ?? {})) as never as (
          args: ExecutionArgs,
        ) => Promise<ExecutionResult>);
      }
    },
  };
}
