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
import {
  getNamedType,
  isInputObjectType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CompiledQuery } from 'graphql-jit';

type Entry = CompiledQuery | 'seen' | 'uncompilable';

/** Whether an input object type can contain itself (analytics filters nest `and`/`or`). */
function isRecursive(type: GraphQLInputObjectType, path: Set<string> = new Set()): boolean {
  if (path.has(type.name)) return true;
  path.add(type.name);
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    if (isInputObjectType(named) && isRecursive(named, path)) return true;
  }
  path.delete(type.name);
  return false;
}

/**
 * graphql-jit compiles variable coercion into straight-line code, and for a recursive input type
 * it expands the recursion while compiling: the analytics query's nested filters took over 30 s.
 * Operations with such a variable stay on graphql-js.
 */
function hasRecursiveVariable(schema: GraphQLSchema, document: DocumentNode): boolean {
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      const type = typeFromAST(schema, variable.type as never) as GraphQLInputType | undefined;
      const named = type ? getNamedType(type) : undefined;
      if (named && isInputObjectType(named) && isRecursive(named)) return true;
    }
  }
  return false;
}

/**
 * The compiled form of an execution's document, or null to run it on graphql-js (first sighting,
 * or not compilable). Used by the plugin below (/graphql) and by the REST facade's executor
 * (http/rest-facade.ts), whose per-route documents are the same objects on every request.
 */
export function createCompiler(): (args: ExecutionArgs) => CompiledQuery | null {
  const documents = new WeakMap<DocumentNode, Map<string, Entry>>();
  // graphql-jit (with fast-json-stringify and ajv, ~130 ms of CPU) is loaded when the first
  // document executes, not at start-up (issue 30 goal 5); a document is compiled on its second
  // execution, by which time it is there (until then documents stay on graphql-js, as on a first
  // sighting). An ES import, so it shares this process's ESM graphql with the schema.
  let jit: typeof import('graphql-jit') | null = null;
  let requested = false;

  return function compiled(args: ExecutionArgs): CompiledQuery | null {
    if (!requested) {
      requested = true;
      // A module that cannot load leaves every document on graphql-js, as an uncompilable one.
      import('graphql-jit').then(
        (module) => {
          jit = module;
        },
        () => undefined,
      );
    }
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
    // Still loading: stays 'seen', compiled on an execution once the module is there.
    if (!jit) return null;
    const { compileQuery, isCompiledQuery } = jit;
    if (hasRecursiveVariable(args.schema, args.document)) {
      byOperation.set(key, 'uncompilable');
      return null;
    }
    const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
    if (!isCompiledQuery(result)) {
      byOperation.set(key, 'uncompilable');
      return null;
    }
    byOperation.set(key, result);
    return result;
  };
}

export function useCompiledExecution(compiled: ReturnType<typeof createCompiler> = createCompiler()): Plugin {
  return {
    onExecute({ args, setExecuteFn }) {
      const query = compiled(args);
      if (query) {
        setExecuteFn(((executeArgs: ExecutionArgs) => query.query(executeArgs.rootValue, executeArgs.contextValue, executeArgs.variableValues ?? {})) as never as (
          args: ExecutionArgs,
        ) => Promise<ExecutionResult>);
      }
    },
  };
}
