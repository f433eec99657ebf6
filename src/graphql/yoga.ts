// Yoga serves /graphql (GraphiQL for browsers, inlined: no CDN); the REST facade made here serves
// every /api route sofa generates, beside Yoga (http/rest-facade.ts). The per-request context is
// built by the HTTP layer and handed in as the server context.
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { renderGraphiQL as RenderGraphiQL } from '@graphql-yoga/render-graphiql';
import { lazyModule } from '../lazy.js';
import { parse, printType, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context.js';
import type { Logger } from '../logger.js';
import { restFacade } from '../http/rest-facade.js';
import { REST_BASE_PATH } from '../http/path-params.js';
import { maskError, useRequestErrorMasking, UNEXPECTED_ERROR_MESSAGE } from './error-masking.js';
import { limitPlugins, type GraphqlLimits } from './limits.js';
import { useRequestGuards } from './guards.js';
import { createExecutionSlots } from './execution-slots.js';
import { useMultipartNulGuard } from './multipart-nul.js';
import { createPersistedQueryStore, useAutomaticPersistedQueries } from './apq.js';
import { useFieldErrorDetails } from './field-errors.js';
import { createCompiler, useCompiledExecution } from './jit.js';
import { createFastLane } from './fast-lane.js';
import { useRequestCacheRelease } from './request-caches.js';
import type { Metrics } from '../observability/metrics.js';
import { executionObserver, useGraphqlObserver } from '../observability/graphql-observer.js';

export interface ServerContext {
  ctx: RequestContext;
}

/** GraphiQL's page inlines its whole bundle (several MB): loaded on the first visit, rendered once. */
const graphiql = lazyModule<{ renderGraphiQL: typeof RenderGraphiQL }>('@graphql-yoga/render-graphiql');
let graphiqlPage: string | null = null;
function cachedGraphiQL(options: Parameters<typeof RenderGraphiQL>[0]): string {
  graphiqlPage ??= graphiql().renderGraphiQL(options);
  return graphiqlPage;
}

export interface GraphqlExposure {
  graphiql: boolean;
  publicIntrospection: boolean;
  suggestions: boolean;
  costPerPoint: number;
  jit: boolean;
}

/**
 * sofa looks each operation's description up in its root type's `astNode`, and without one
 * (a code-first schema has none) prints and re-parses the whole Query or Mutation type for every
 * route and every argument: about 2 s of start-up for this schema. One printed definition per
 * root type, made once, gives it the same descriptions.
 */
function giveRootTypesDefinitions(schema: GraphQLSchema): void {
  for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (type && !type.astNode) {
      (type as { astNode: unknown }).astNode = parse(printType(type)).definitions[0];
    }
  }
}

/**
 * GraphiQL's first tab: a query that answers for anyone (no key, no session), so a first visit
 * shows data instead of UNAUTHORIZED, and comments saying where the credentials go.
 */
export const GRAPHIQL_DEFAULT_QUERY = `# Commerce GraphQL: this query works for anyone.
#
# Credentials go in the Headers tab (below), as JSON:
#   {"x-api-key": "cs_storefront_..."}
#     an API key: npx commerce api-keys create
#   {"Authorization": "Bearer <token>"}
#     a user: token from POST /api/auth/sign-in/email
# Both: the user acts, bounded by the key's scope.
#
# With a storefront key, try:
#   { store { name defaultCurrency currencies } }
query Welcome {
  __typename
}
`;

export function createGraphqlServer(options: {
  schema: GraphQLSchema;
  limits: GraphqlLimits;
  version: string;
  exposure: GraphqlExposure;
  logger?: Logger;
  metrics?: Metrics | null;
  /** config.executionSlots: heavy operations wait for one of `max` slots (0: none wait). */
  executionSlots?: { max: number; minCost: number; holdMs: number };
}) {
  giveRootTypesDefinitions(options.schema);
  const observer = useGraphqlObserver(options.metrics ?? null);
  // One set of slots for /graphql and /api alike: heavy operations wait for the same ones.
  const slotConfig = options.executionSlots;
  const heavy = slotConfig && slotConfig.max > 0 ? { slots: createExecutionSlots(slotConfig.max, slotConfig.holdMs), minCost: slotConfig.minCost } : null;
  if (heavy) options.metrics?.executionSlots(heavy.slots);
  const guards = {
    costPerPoint: options.exposure.costPerPoint,
    maxCost: options.limits.maxCost,
    publicIntrospection: options.exposure.publicIntrospection,
    heavy,
  };
  // /api runs beside Yoga, not through it (http/rest-facade.ts), with the same guards, masking,
  // compiled execution and observation as the plugins below.
  const facade = restFacade({
    basePath: REST_BASE_PATH,
    title: 'Commerce API',
    version: options.version,
    schema: options.schema,
    guards,
    metrics: options.metrics ?? null,
    jit: options.exposure.jit,
  });
  // One store of persisted documents and one compiler for Yoga and the fast lane alike.
  const persisted = createPersistedQueryStore();
  const compiler = options.exposure.jit ? createCompiler() : null;
  // /graphql requests whose document Yoga has validated run outside its pipeline (fast-lane.ts).
  const lane = createFastLane({ schema: options.schema, guards, persisted, compiler, observe: executionObserver(options.metrics ?? null), fetchAPI: () => yoga.fetchAPI });
  const yoga: YogaServerInstance<ServerContext, RequestContext> = createYoga<ServerContext, RequestContext>({
    schema: options.schema,
    graphqlEndpoint: '/graphql',
    // The context was built before Yoga saw the request (actor, organization, loaders).
    context: ({ ctx }) => ctx,
    graphiql: options.exposure.graphiql ? { title: 'Commerce GraphQL', defaultQuery: GRAPHIQL_DEFAULT_QUERY } : false,
    renderGraphiQL: cachedGraphiQL,
    landingPage: false,
    // CORS is answered by the HTTP layer for every route alike (http/cors.ts).
    cors: false,
    logging: false,
    maskedErrors: {
      errorMessage: UNEXPECTED_ERROR_MESSAGE,
      // Execution errors were masked with the request's context already (error-masking.ts);
      // what reaches here was raised outside execution.
      maskError: (error: unknown, message: string) => maskError(error, message, { logger: options.logger }),
    },
    // The body limit (config bodyLimitBytes, uploads: the media limit) and the read timeout were
    // enforced by the HTTP layer before Yoga sees the request (http/body.ts readBody, which also
    // sets Content-Length to the bytes read). Yoga's own limit (25 MB) piped every body through
    // one more TransformStream into a new Request: ~0.2 ms of a trivial query's CPU.
    maxRequestBodySize: false,
    // Yoga's JSON parser calls request.json(): http/body.ts hands on a request whose json() parses
    // the bytes it already buffered, so no body stream is read again here.
    plugins: [
      useRequestErrorMasking(),
      useAutomaticPersistedQueries(persisted),
      useFieldErrorDetails(),
      ...limitPlugins(options.limits, { suggestions: options.exposure.suggestions }),
      useRequestGuards(guards),
      useMultipartNulGuard(),
      ...(compiler ? [useCompiledExecution(compiler)] : []),
      useRequestCacheRelease(),
      // Last: it wraps the execute function the plugins above settled on.
      ...(observer ? [observer] : []),
      // Tells the fast lane which documents passed parsing and validation (graphql/fast-lane.ts).
      lane.plugin,
    ],
  });
  return { yoga, facade, lane };
}
