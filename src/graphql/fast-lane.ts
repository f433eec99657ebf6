// /graphql's fast lane: a POST whose document Yoga has already parsed and validated is executed
// here, outside Yoga's envelop pipeline, the way the REST facade executes its routes (issue 30:
// Yoga's request parsing, its plugin orchestration and its context merging were half the CPU of a
// trivial query). Every rule still lives in one place: the lane calls the functions the envelop
// plugins call, in the order envelop runs them —
//   persisted queries (apq.ts) → execution guards (guards.ts: introspection, cost, rate charge) →
//   compiled execution (jit.ts, the same compiler) → error masking (error-masking.ts) →
//   observation (graphql-observer.ts) → variable error details (field-errors.ts) →
//   Yoga's own masking (error-masking.ts maskError) → Yoga's result processor (processRegularResult)
// — and the rules inside execution (scope-auth, validation, audit) are in the resolvers both run.
//
// Anything the lane is not sure to answer exactly as Yoga would goes to Yoga unchanged: a document
// not yet validated there (parse, validation and the depth/alias/token/directive limits happen
// only in Yoga, and a document's validity depends on nothing but the document), GET, multipart and
// non-JSON bodies, batches, unexpected parameters, an unknown operation, a subscription, an Accept
// header that selects a streaming answer, a persisted-query refusal.
import { getOperationAST, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
// Yoga's own executor (useEngine in graphql-yoga's server), for a document not compiled yet:
// its early errors (a missing variable) carry the HTTP 400 Yoga answers them with.
import { normalizedExecutor } from '@graphql-tools/executor';
import { processRegularResult, type Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { RequestContext } from '../context.js';
import { bufferedText, type FetchApi } from '../http/body.js';
import type { PersistedQueryStore } from './apq.js';
import { compiledExecution } from './compiled-execution.js';
import { maskError, UNEXPECTED_ERROR_MESSAGE } from './error-masking.js';
import { withFieldErrorDetails } from './field-errors.js';
import type { GuardOptions } from './guards.js';
import type { createCompiler } from './jit.js';
import type { executionObserver } from '../observability/graphql-observer.js';

/** Documents the lane remembers (Yoga's own parse cache keeps 1,000 too). */
export const FAST_LANE_DOCUMENTS = 1000;

const PARAMS = new Set(['query', 'variables', 'operationName', 'extensions']);

interface Known {
  document: DocumentNode;
  /** Operations by name ('' for an unnamed request), as getOperationAST finds them. */
  operations: Map<string, OperationDefinitionNode | null>;
}

/** A plain JSON object (not an array, not null). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The media type Yoga's result processors would answer a single (non-streamed) result with, or
 * null when the request's Accept selects none of the regular JSON ones (Yoga then answers 406 or
 * streams). Yoga (plugins/use-result-processor.ts, result-processor/accept.ts) walks its processors
 * (SSE, multipart, regular JSON) and the accepted types from the last listed to the first, and
 * keeps the last pair that matches; a single result skips the streaming processors.
 */
export function regularMediaType(accept: string | null): 'application/json' | 'application/graphql-response+json' | null {
  const key = accept ?? '';
  let chosen = mediaTypes.get(key);
  if (chosen === undefined) {
    chosen = negotiate(accept);
    // Clients send a handful of Accept headers; a flood of distinct ones starts the memo over.
    if (mediaTypes.size >= 100) mediaTypes.clear();
    mediaTypes.set(key, chosen);
  }
  return chosen;
}

const mediaTypes = new Map<string, 'application/json' | 'application/graphql-response+json' | null>();

function negotiate(accept: string | null): 'application/json' | 'application/graphql-response+json' | null {
  const asked: string[] = [];
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...params] = entry.split(';');
    if (mediaType === undefined) continue;
    const charset = params.find((param) => param.includes('charset=')) || 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    asked.push(mediaType);
  }
  asked.reverse();
  let chosen: 'application/json' | 'application/graphql-response+json' | null = null;
  for (const requested of asked) {
    for (const offered of ['application/graphql-response+json', 'application/json'] as const) {
      const [pre, suf] = requested.split('/');
      const [offeredPre, offeredSuf] = offered.split('/');
      // Only the asked type's wildcards count (Yoga's isMatchingMediaType, as it is called).
      if ((pre === '*' || pre === offeredPre) && (suf === '*' || suf === offeredSuf)) chosen = offered;
    }
  }
  return chosen;
}

export interface FastLaneOptions {
  schema: GraphQLSchema;
  guards: GuardOptions;
  persisted: PersistedQueryStore;
  compiler: ReturnType<typeof createCompiler> | null;
  observe: ReturnType<typeof executionObserver>;
  /** Yoga's fetch API (its Response class), known once Yoga is made. */
  fetchAPI: () => FetchApi & { Response: typeof Response };
}

export interface FastLane {
  /** The Yoga plugin that tells the lane which documents passed parsing and validation. */
  plugin: Plugin;
  /** The answer to a /graphql request the lane can give exactly as Yoga would, or null for Yoga. */
  serve(request: Request, ctx: RequestContext): Promise<Response | null>;
}

export function createFastLane(options: FastLaneOptions): FastLane {
  // Yoga's own executor for a document not compiled yet (see the import).
  const run = compiledExecution({
    guards: options.guards,
    compiler: options.compiler,
    observe: options.observe,
    fallback: (args) => normalizedExecutor(args) as Promise<ExecutionResult> | ExecutionResult,
  });
  const known = new LRUCache<string, Known>({ max: FAST_LANE_DOCUMENTS });

  const plugin: Plugin = {
    onValidate({ params, context }) {
      const query = (context as { params?: { query?: unknown } }).params?.query;
      const document = params.documentAST;
      return ({ valid }) => {
        if (valid && typeof query === 'string' && !known.has(query)) known.set(query, { document, operations: new Map() });
      };
    },
  };

  function operationOf(entry: Known, name: string | undefined): OperationDefinitionNode | null {
    const key = name ?? '';
    let operation = entry.operations.get(key);
    if (operation === undefined) {
      operation = getOperationAST(entry.document, name) ?? null;
      entry.operations.set(key, operation);
    }
    return operation;
  }

  /** The request's GraphQL parameters when the lane may take them (see the file comment), else null. */
  function paramsOf(request: Request): { query: unknown; variables?: Record<string, unknown> | null; operationName?: string | null; extensions?: unknown } | null {
    if (request.method !== 'POST') return null;
    const type = request.headers.get('content-type');
    // Yoga's JSON parser takes exactly these (isContentTypeMatch): anything else is Yoga's.
    if (type !== 'application/json' && !type?.startsWith('application/json;')) return null;
    const text = bufferedText(request);
    if (text === null) return null;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return null;
    }
    if (!isObject(body)) return null;
    for (const key in body) if (!PARAMS.has(key) && body[key] != null) return null;
    const { variables, operationName, extensions } = body;
    if (variables != null && !isObject(variables)) return null;
    if (operationName != null && typeof operationName !== 'string') return null;
    if (extensions != null && !isObject(extensions)) return null;
    return body as ReturnType<typeof paramsOf>;
  }

  return {
    plugin,
    async serve(request, ctx) {
      const params = paramsOf(request);
      if (!params) return null;
      let query: unknown;
      try {
        query = options.persisted.resolve(params, ctx);
      } catch {
        return null; // Yoga gives the refusal (resolving again refuses the same way)
      }
      if (typeof query !== 'string') return null;
      const entry = known.get(query);
      if (!entry) return null;
      const operationName = params.operationName ?? undefined;
      const operation = operationOf(entry, operationName);
      if (!operation || operation.operation === 'subscription') return null;
      const mediaType = regularMediaType(request.headers.get('accept'));
      if (!mediaType) return null;
      const args: ExecutionArgs = {
        schema: options.schema,
        document: entry.document,
        contextValue: ctx,
        variableValues: params.variables ?? undefined,
        operationName,
      };
      let result: ExecutionResult;
      try {
        result = await run(args);
      } catch (error) {
        // What Yoga does with an error thrown out of execution: masked, as its only error.
        result = { errors: [maskError(error, UNEXPECTED_ERROR_MESSAGE, ctx) as GraphQLError] };
      }
      // Yoga's masking (its last execution hook), then the details (its execution-result hook).
      if (result.errors?.length) result = { ...result, errors: result.errors.map((error) => maskError(error, UNEXPECTED_ERROR_MESSAGE, ctx) as GraphQLError) };
      result = withFieldErrorDetails(result);
      return processRegularResult(result, options.fetchAPI() as never, mediaType) as Response;
    },
  };
}
