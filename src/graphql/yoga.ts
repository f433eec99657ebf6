// Yoga serves /graphql (GraphiQL for browsers, inlined: no CDN) and, through the REST facade
// plugin, every /api route sofa generates. The per-request context is built by the HTTP layer
// and handed in as the server context.
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { renderGraphiQL as RenderGraphiQL } from '@graphql-yoga/render-graphiql';
import { lazyModule } from '../lazy.js';
import { GraphQLError, parse, printType, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context.js';
import { requestScope } from '../logger.js';
import { restFacade } from '../http/rest-facade.js';
import { DATABASE_UNAVAILABLE } from '../http/rest-errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { limitPlugins, type GraphqlLimits } from './limits.js';
import { useRequestGuards } from './guards.js';
import { isClientAbort } from '../logger.js';
import { useAutomaticPersistedQueries } from './apq.js';
import { useFieldErrorDetails } from './field-errors.js';
import { useCompiledExecution } from './jit.js';

/** Errors we raised on purpose (AppError, scalar rejections) carry a code and a REST status. */
function isClientSafe(error: unknown): boolean {
  const ext = (error as { extensions?: { code?: unknown; restStatus?: unknown } } | null)?.extensions;
  return typeof ext?.code === 'string' && typeof ext.restStatus === 'number';
}

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

/** graphql-js's messages for an input value its type refuses (scalars, enums, input objects). */
const INPUT_COERCION = /cannot represent|Expected value of type|does not exist in "[^"]+" enum|Expected type|Expected non-nullable type|is not defined by type|of required type .* was not provided|Expected Iterable/;

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

export function createGraphqlServer(options: { schema: GraphQLSchema; limits: GraphqlLimits; version: string; exposure: GraphqlExposure }) {
  giveRootTypesDefinitions(options.schema);
  const facade = restFacade({ basePath: '/api', title: 'Commerce API', version: options.version });
  const yoga: YogaServerInstance<ServerContext, RequestContext> = createYoga<ServerContext, RequestContext>({
    schema: options.schema,
    graphqlEndpoint: '/graphql',
    // The context was built before Yoga saw the request (actor, organization, loaders).
    context: ({ ctx }) => ctx,
    graphiql: options.exposure.graphiql ? { title: 'Commerce GraphQL', defaultQuery: '{ settings }' } : false,
    renderGraphiQL: cachedGraphiQL,
    landingPage: false,
    // CORS is answered by the HTTP layer for every route alike (http/cors.ts).
    cors: false,
    logging: false,
    maskedErrors: {
      maskError(error: unknown, message: string): Error {
        // Duck-typed rather than instanceof: graphql can be loaded twice (ESM and CJS builds),
        // and an AppError from one copy is not an instance of the other's GraphQLError.
        if (isClientSafe(error)) return error as GraphQLError;
        const original = (error as { originalError?: unknown }).originalError;
        if (isClientSafe(original)) return error as GraphQLError; // keeps path and locations
        if ((error as Error)?.name === 'GraphQLError' && !original) return error as GraphQLError; // parse/validation errors
        // graphql-js refusing an input value (sofa coerces REST bodies with it): bad input, 422.
        const refused = (original ?? error) as { name?: string; message?: string };
        if (refused?.name === 'GraphQLError' && INPUT_COERCION.test(refused.message ?? '')) {
          return new GraphQLError(refused.message!, { extensions: { code: 'VALIDATION_FAILED', restStatus: 422 } });
        }
        const scope = requestScope.getStore();
        if (isDatabaseUnavailable(original ?? error)) {
          scope?.logger.warn({ err: original ?? error }, 'database unavailable while executing an operation');
          return new GraphQLError(DATABASE_UNAVAILABLE.message, {
            extensions: { code: DATABASE_UNAVAILABLE.code, restStatus: 503, requestId: scope?.requestId },
          });
        }
        // A client that hung up is not a server fault (load generators stopping, tabs closed).
        if (isClientAbort(original ?? error)) scope?.logger.debug('client closed the request during execution');
        else scope?.logger.error({ err: original ?? error }, 'unexpected error while executing an operation');
        return new GraphQLError(message, {
          extensions: { code: 'INTERNAL_ERROR', restStatus: 500, requestId: scope?.requestId },
        });
      },
    },
    plugins: [
      useAutomaticPersistedQueries(),
      useFieldErrorDetails(),
      ...limitPlugins(options.limits, { suggestions: options.exposure.suggestions }),
      useRequestGuards({ costPerPoint: options.exposure.costPerPoint, publicIntrospection: options.exposure.publicIntrospection }),
      facade,
      ...(options.exposure.jit ? [useCompiledExecution()] : []),
    ],
  });
  return { yoga, facade };
}
