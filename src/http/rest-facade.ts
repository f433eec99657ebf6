// The REST facade: sofa-api generates /api routes from the GraphQL fields, and each request runs
// the route sofa built for it (its handler: variables from path, query and body, its one fixed
// document, its answer) with a per-route compiled execution (graphql-jit) outside Yoga's envelop
// pipeline (issue 30). The rules /graphql applies around execution are the same functions here
// (graphql/guards.ts cost, rate charge and introspection; graphql/multipart-nul.ts; the error
// masking of graphql/error-masking.ts; the operation metrics and span of graphql-observer.ts),
// and the rules inside it (scope-auth, validation, audit) live in the resolvers both paths run.
// What the contract needs beyond sofa:
//   - REST-only query keys (`rest.queryOnly`: `include`) read outside the GraphQL arguments,
//   - success bodies in `{ data }` (paginated fields already have the `{ data, meta }` shape),
//   - errors as `{ error: { code, message, details? } }` with the REST status,
//   - routes whose body *is* one argument (`bodyAs`),
//   - explicit nulls in a JSON body reach nullable arguments (sofa would drop them),
//   - a success status chosen by the operation (`ctx.rest.status`, one of `rest.otherStatuses`),
//   - 404 NOT_FOUND for anything sofa has no route for, including its built-in /webhook routes.
import { createRequire } from 'node:module';
import { Response as AdapterResponse } from '@whatwg-node/server';
import type { useSofa as CreateSofaHandler } from 'sofa-api';
import { execute as executeOnGraphqlJs, Kind, type ExecutionArgs, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { accessRefusal, operations, restPathArg } from '../graphql/operation.js';
import type { RequestContext } from '../context.js';
import { graphOnlyFields } from '../graphql/loaders.js';
import { structuredArgumentIssues } from '../graphql/zod-args.js';
import { structuredValueIssues } from './input-coercion.js';
import { bufferedText } from './body.js';
import { errorResponse, restErrorFromGraphQL, takeUnexpectedErrors } from './rest-errors.js';
import { compileRoute, pathParamIssues, type CompiledRoute } from './path-params.js';
import type { GuardOptions } from '../graphql/guards.js';
import { compiledExecution } from '../graphql/compiled-execution.js';
import { createCompiler } from '../graphql/jit.js';
import { executionObserver } from '../observability/graphql-observer.js';
import type { Metrics } from '../observability/metrics.js';

type Sofa = ReturnType<typeof CreateSofaHandler>;
/** One route of sofa's router (fets keeps them in `__routes`, for mounting a router in another). */
interface SofaRoute {
  method?: string;
  path: string;
  handler(request: Request, serverContext: { ctx: RequestContext }): Promise<Response | undefined> | Response | undefined;
}

/** qs's parse, as sofa calls it (no options). */
export type QueryParser = (query: string | undefined) => Record<string, unknown>;

/**
 * The request as sofa should see it at another URL (and with `params`, sofa's parsed variables,
 * when given): a view over the original's method, headers and body (the members sofa and
 * rewriteBody read), not a new Request (undici's constructor, with its URL and header copies, was
 * ~1% of a list page's profile; same-run A/B B/A 0.952).
 */
function requestAt(request: Request, url: string, params?: Record<string, unknown>): Request {
  return {
    url,
    params,
    method: request.method,
    headers: request.headers,
    get body() {
      return request.body;
    },
    text: () => request.text(),
    json: () => request.json(),
  } as unknown as Request;
}

/**
 * The request sofa's handler (sofa-api router.js useHandler) is given when the URL has a query
 * string. The handler picks each declared variable as `params[name]` when `name in params`, else
 * as `qs.parse(url.split('?')[1])[name] || body[name]`: it parses the query string once per
 * variable (11 times for a catalog list, ~3% of its CPU). Here it is parsed once, with sofa's own
 * qs, and its truthy values go into `params` under the path parameters (which still win, as in
 * sofa); the URL sofa sees has no query string, so an absent or empty key still falls through to
 * the body. Every variable gets the value, coercion and error sofa would have given it. A view
 * rather than a new Request or a redefined `url`: the caller's request keeps its URL, and a
 * GET's headers are not copied. It has what the handler reads (url, params, body, text) and what
 * a reader of the request would expect (method, headers).
 */
export function withParsedQuery(request: Request, pathParams: Record<string, string>, parse: QueryParser): Request {
  const url = request.url;
  const mark = url.indexOf('?');
  let parsed: Record<string, unknown> | null = null;
  if (mark >= 0) {
    try {
      parsed = parse(url.split('?')[1]);
    } catch {
      // sofa meets the same failure parsing the URL as sent, and answers it as it always has.
    }
  }
  if (!parsed) {
    // sofa reads path parameters from request.params, decoded, by the names it was given.
    Object.defineProperty(request, 'params', { value: pathParams, configurable: true });
    return request;
  }
  // Own data properties (fromEntries, not assignment): a key named like an Object.prototype
  // member stays a key. Path parameters are assigned over them, as sofa checks them first.
  const params: Record<string, unknown> = Object.fromEntries(Object.entries(parsed).filter(([, value]) => value));
  Object.assign(params, pathParams);
  return requestAt(request, url.slice(0, mark), params);
}

/**
 * sofa's answer in the server adapter's own Response class (Yoga's fetch API), with the same
 * status, JSON text and the two headers sofa's Response.json sets. sofa builds its answers with
 * fets' copy of whatwg-node, whose Headers iterate through a generator that sorts the names on
 * every forEach: the HTTP layer copies, extends and sends these headers (http/app.ts serve), and
 * that iteration was ~5 KB of garbage per request, the largest single allocator of a settings
 * read. The JSON text is held by the answer (not a stream), so reading it copies nothing.
 * Answers the facade built itself (errors) are already Node's or the adapter's and pass as they are.
 */
async function adapterResponse(response: Response, status: number): Promise<Response> {
  // Typed as the same class; at run time the adapter's (fetch API ponyfill) and Node's differ.
  const answer: object = response;
  const own = answer instanceof AdapterResponse || answer instanceof Response;
  if (own) {
    return status === response.status ? response : new AdapterResponse(await response.text(), { status, headers: response.headers });
  }
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'content-length']) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return new AdapterResponse(await response.text(), { status, headers });
}

export interface RestFacadeOptions {
  basePath: string;
  title: string;
  version: string;
  /** The full schema (execution runs on it; sofa routes on it without the graph-only relations). */
  schema: GraphQLSchema;
  guards: GuardOptions;
  metrics: Metrics | null;
  /** Compiled execution (config graphql.jit), as on /graphql. */
  jit: boolean;
}

export interface RestFacade {
  /** Answers one /api request (a sofa route, or 404) with the request's context. */
  serve(request: Request, pathname: string, ctx: RequestContext): Promise<Response>;
  /** The schema sofa routes on (no graph-only relations): /api/doc derives its responses from it. */
  restSchema(): GraphQLSchema;
}

/** The first path segment under the base path (`catalog` of /api/catalog/entities/:id); `*` for a parameter. */
function firstSegment(basePath: string, path: string): string {
  const rest = path.startsWith(`${basePath}/`) ? path.slice(basePath.length + 1) : '';
  const end = rest.indexOf('/');
  const segment = end < 0 ? rest : rest.slice(0, end);
  return segment.startsWith(':') ? '*' : segment;
}

/**
 * The routes a request may match, by method and first segment, each list in declaration order:
 * a request tests the few routes of its resource, not all ~300 (the scan was ~2% of a settings
 * read's CPU). A segment no route declares gets the routes whose first segment is a parameter.
 */
function routeIndex(basePath: string, routes: readonly CompiledRoute[]): (method: string, pathname: string) => readonly CompiledRoute[] {
  const declared = new Map<string, CompiledRoute[]>();
  const segments = new Set<string>();
  for (const route of routes) {
    // biome-ignore lint/style/noNonNullAssertion: compiled routes are declared ones, with a REST route
    segments.add(firstSegment('', route.operation.rest!.path));
  }
  for (const route of routes) {
    // biome-ignore lint/style/noNonNullAssertion: compiled routes are declared ones, with a REST route
    const own = firstSegment('', route.operation.rest!.path);
    for (const segment of own === '*' ? [...segments] : [own]) {
      const key = `${route.method} ${segment}`;
      const list = declared.get(key) ?? [];
      list.push(route);
      declared.set(key, list);
    }
  }
  return (method, pathname) => {
    const segment = firstSegment(basePath, pathname);
    return declared.get(`${method} ${segments.has(segment) ? segment : '*'}`) ?? [];
  };
}

/**
 * The route a method and path select, as sofa's router (fets) would: a path without parameters
 * first, then the parameterized ones in declaration order.
 */
function findRoute(routes: readonly CompiledRoute[], method: string, pathname: string): CompiledRoute | undefined {
  let found: CompiledRoute | undefined;
  for (const route of routes) {
    if (route.method !== method || !route.pattern.test(pathname)) continue;
    if (!route.params.length) return route;
    found ??= route;
  }
  return found;
}

/**
 * The schema sofa builds its routes from: the full schema without the graph-only relations
 * (graphql/loaders.ts `graphOnly`). mapSchema (@graphql-tools/utils, sofa's own toolkit) rewires
 * every type reference, which hand-rebuilding a schema would have to redo.
 */
export function withoutGraphOnlyFields(schema: GraphQLSchema): GraphQLSchema {
  if (!graphOnlyFields.size) return schema;
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => (graphOnlyFields.has(`${typeName}.${fieldName}`) ? null : field),
  });
}

export function restFacade(options: RestFacadeOptions): RestFacade {
  type Router = { sofa: Sofa; handlers: Map<CompiledRoute, { handler: SofaRoute['handler']; pattern: RegExp }>; parseQuery: QueryParser };
  let built: Promise<Router> | null = null;
  let router: Router | undefined;
  let restSchema: GraphQLSchema | null = null;
  const schemaForRest = (): GraphQLSchema => (restSchema ??= withoutGraphOnlyFields(fullSchema));
  const fullSchema = options.schema;
  // graphql-js runs a document until the compiler takes it, as on /graphql.
  const run = compiledExecution({
    guards: options.guards,
    compiler: options.jit ? createCompiler() : null,
    observe: executionObserver(options.metrics),
    fallback: executeOnGraphqlJs,
  });
  const registered = [...operations.values()].filter((op) => op.rest);
  const routes = Object.fromEntries(
    registered.map((op) => [
      `${op.kind === 'query' ? 'Query' : 'Mutation'}.${op.name}`,
      // sofa fills arguments by path parameter name: it gets the input keys (rest.pathArgs).
      {
        // biome-ignore lint/style/noNonNullAssertion: `registered` keeps only operations with a REST route
        method: op.rest!.method,
        // biome-ignore lint/style/noNonNullAssertion: `registered` keeps only operations with a REST route
        path: op.rest!.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => `:${restPathArg(op.rest!, name)}`),
        // biome-ignore lint/style/noNonNullAssertion: `registered` keeps only operations with a REST route
        responseStatus: op.rest!.status ?? 200,
        tags: [op.tag],
        description: op.summary,
      },
    ]),
  );
  const compiled: CompiledRoute[] = registered.map((op) => compileRoute(options.basePath, op));
  const candidates = routeIndex(options.basePath, compiled);
  const paginated = new Set(registered.filter((op) => op.paginated).map((op) => op.name));

  function wrap(result: ExecutionResult): ExecutionResult {
    if (result.errors?.length || !result.data) return result;
    const [field] = Object.keys(result.data);
    if (!field || paginated.has(field)) return result;
    return { ...result, data: { [field]: { data: result.data[field] } } };
  }

  /**
   * Moves the route's REST-only query keys (`rest.queryOnly`, e.g. `include`) out of the URL onto
   * the request's REST state, where the operation's resolver reads them: they are not GraphQL
   * arguments, so sofa has nothing to fill with them.
   */
  function takeQueryOnly(request: Request, route: CompiledRoute, rest: RequestContext['rest'] | undefined): Request {
    const keys = route.operation.rest?.queryOnly;
    if (!keys?.length) return request;
    if (!request.url.includes('?')) {
      // No query string, nothing to take (and no URL to parse: a product page without include).
      if (rest) rest.queryArgs = {};
      return request;
    }
    const url = new URL(request.url);
    const taken: Record<string, string | string[]> = {};
    for (const key of keys) {
      const values = url.searchParams.getAll(key);
      if (!values.length) continue;
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      taken[key] = values.length === 1 ? values[0]! : values;
      url.searchParams.delete(key);
    }
    if (rest) rest.queryArgs = taken;
    if (!Object.keys(taken).length) return request;
    return requestAt(request, url.href);
  }

  /**
   * Prepares the body for sofa: wraps it under `bodyAs` for routes whose body is one argument,
   * and notes the top-level keys sent as explicit null (sofa drops them; see withExplicitNulls).
   */
  async function rewriteBody(original: Request, route: CompiledRoute, rest: RequestContext['rest'] | undefined): Promise<Request | Response> {
    const request = takeQueryOnly(original, route, rest);
    const prefixed = route.operation.rest?.queryPrefix;
    if (prefixed && request.method === 'GET') {
      const url = new URL(request.url);
      const moved: Array<[string, string]> = [];
      for (const [key, value] of url.searchParams) if (key.startsWith(prefixed.prefix)) moved.push([key.slice(prefixed.prefix.length), value]);
      if (!moved.length) return request;
      for (const [name] of moved) url.searchParams.delete(prefixed.prefix + name);
      for (const [name, value] of moved) url.searchParams.append(prefixed.arg, `${name}=${value}`);
      return new Request(url, { method: request.method, headers: request.headers });
    }
    if (request.method !== 'POST' && request.method !== 'PUT' && request.method !== 'PATCH') return request;
    const bodyAs = route.operation.rest?.bodyAs;
    const text = await request.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // Leave it to sofa, which answers malformed JSON with 400.
      return new Request(request.url, { method: request.method, headers: request.headers, body: text });
    }
    if (bodyAs) return new Request(request.url, { method: request.method, headers: request.headers, body: JSON.stringify({ [bodyAs]: parsed }) });
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const body = parsed as Record<string, unknown>;
      const issues = [...structuredArgumentIssues(route.operation.input.shape, body), ...structuredValueIssues(fullSchema, route.operation.kind, route.operation.name, body)];
      if (issues.length) return errorResponse(422, 'VALIDATION_FAILED', 'Input validation failed', issues);
    }
    if (rest && parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      rest.nullArgs = Object.entries(parsed)
        .filter(([, value]) => value === null)
        .map(([key]) => key);
    }
    // A body http/body.ts holds is read again from its bytes (text() above took nothing from
    // it): sofa gets the same request. A new one (Node's Request over web streams) cost ~3% of
    // a checkout visit's CPU (bench/checkout-profile.ts).
    if (bufferedText(request) !== null) return request;
    return new Request(request.url, { method: request.method, headers: request.headers, body: text || undefined });
  }

  /**
   * sofa omits variables whose body value is null, so `{ "taxClassId": null }` would mean "leave
   * it" instead of "clear it". Put explicit nulls back for the operation's nullable arguments
   * (a null for a required one stays omitted and is reported as missing, 422).
   */
  function withExplicitNulls(args: ExecutionArgs): ExecutionArgs {
    const nullArgs = (args.contextValue as Partial<RequestContext> | undefined)?.rest?.nullArgs;
    if (!nullArgs?.length) return args;
    const operation = args.document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    const variables = { ...(args.variableValues ?? {}) };
    for (const definition of operation?.kind === Kind.OPERATION_DEFINITION ? (operation.variableDefinitions ?? []) : []) {
      const name = definition.variable.name.value;
      if (nullArgs.includes(name) && !(name in variables) && definition.type.kind !== Kind.NON_NULL_TYPE) variables[name] = null;
    }
    return { ...args, variableValues: variables };
  }

  /**
   * One route's execution: /graphql's rules around the route's document, compiled once
   * (graphql/compiled-execution.ts, which the fast lane of /graphql runs too), then the `{ data }`
   * wrapping of a non-paginated answer.
   */
  async function execute(sofaArgs: ExecutionArgs): Promise<ExecutionResult> {
    return wrap(await run(withExplicitNulls({ ...sofaArgs, schema: fullSchema })));
  }

  /**
   * sofa's router, built on the first REST request: loading sofa-api and building ~300 routes is
   * a good part of a second of CPU that `npm start` need not spend before it is ready (issue 30
   * goal 5). /api/doc does not need it (it is derived from restSchema and the registry).
   */
  async function build(): Promise<Router> {
    const { useSofa: createSofaHandler } = await import('sofa-api');
    // The qs sofa parses query strings with, resolved from sofa's own package (not a copy of ours):
    // withParsedQuery must give every variable what sofa's parse would.
    const requireFromSofa = createRequire(createRequire(import.meta.url).resolve('sofa-api'));
    const parseQuery = (requireFromSofa('qs') as { parse: QueryParser }).parse;
    const sofa = createSofaHandler({
      basePath: options.basePath,
      // sofa derives each route's selection (and its OpenAPI response) from this schema: the
      // relations only the graph resolves are left out, so REST bodies and statement counts stay
      // as they were. Execution still runs against the full schema (see execute above).
      schema: schemaForRest(),
      routes: routes as never,
      depthLimit: 2,
      // An endpoint must be named for sofa (fets) to record paths and response schemas at all;
      // /api/doc serves the post-processed document, and the facade never routes to this one.
      openAPI: { info: { title: options.title, version: options.version }, endpoint: '/__sofa-openapi.json' },
      swaggerUI: { endpoint: false as never },
      // How our scalars look in JSON, for the response schemas sofa derives.
      customScalars: {
        UUID: { type: 'string', format: 'uuid' },
        DateTime: { type: 'string', format: 'date-time' },
        MinorUnits: { type: 'integer', format: 'int64', description: 'Integer minor units of the currency' },
        JSON: {},
        JSONObject: { type: 'object', additionalProperties: true },
      },
      // The request's context was built by the HTTP layer (http/app.ts) before sofa saw it.
      context: (serverContext: { ctx: RequestContext }) => serverContext.ctx,
      execute,
      errorHandler: (errors: ReadonlyArray<GraphQLError>) => restErrorFromGraphQL(errors),
    } as never);
    // Each declared route's handler in sofa's router, by the method and path it was given: the
    // facade dispatches to it directly (the route is already found, see serve), which is what
    // sofa's router does after its own URLPattern scan. The pattern is sofa's path exactly (no
    // trailing slash), so a URL sofa's router would not match stays 404.
    const byKey = new Map<string, SofaRoute>();
    for (const route of (sofa as unknown as { __routes: SofaRoute[] }).__routes) byKey.set(`${route.method} ${route.path}`, route);
    const handlers = new Map<CompiledRoute, { handler: SofaRoute['handler']; pattern: RegExp }>();
    for (const route of compiled) {
      const key = `${route.method} ${routes[`${route.operation.kind === 'query' ? 'Query' : 'Mutation'}.${route.operation.name}`]?.path}`;
      const sofaRoute = byKey.get(key);
      if (!sofaRoute) throw new Error(`sofa built no route for ${key}`);
      handlers.set(route, { handler: sofaRoute.handler, pattern: new RegExp(route.pattern.source.replace(/\\?\/\?\$$/, '$')) });
    }
    return { sofa, handlers, parseQuery };
  }

  return {
    restSchema: schemaForRest,
    async serve(request, pathname, ctx) {
      const route = findRoute(candidates(request.method, pathname), request.method, pathname);
      if (!route) return errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${pathname}`);
      // Who may call comes before what was sent: sofa parses path, query and body values before
      // the field (and its scope-auth check) runs, and would answer 422 first.
      const refusal = accessRefusal(route.operation.access, ctx.actor);
      if (refusal) return errorResponse(refusal.status, refusal.code, refusal.message);
      // Then the path: a malformed id is 422 naming its parameter before the field runs.
      const pathIssues = pathParamIssues(route, pathname);
      if (pathIssues.length) return errorResponse(422, 'VALIDATION_FAILED', 'Input validation failed', pathIssues);
      ctx.rest.facade = true;
      const rewritten = await rewriteBody(request, route, ctx.rest);
      if (rewritten instanceof Response) return rewritten;
      // Awaited until built; then read as it is (no promise turn per request).
      router ??= await (built ??= build());
      const { handlers, parseQuery } = router;
      // biome-ignore lint/style/noNonNullAssertion: build() gives every compiled route its handler
      const { handler, pattern } = handlers.get(route)!;
      const match = pattern.exec(pathname);
      if (!match) return errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${pathname}`);
      // sofa reads path parameters from request.params, decoded, by the names it was given.
      const params: Record<string, string> = {};
      // biome-ignore lint/style/noNonNullAssertion: compiled routes are declared ones, with a REST route
      route.params.forEach((name, i) => (params[restPathArg(route.operation.rest!, name)] = decodeURIComponent(match[i + 1] ?? '')));
      const response = await handler(withParsedQuery(rewritten, params, parseQuery), { ctx });
      if (!response) return errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${pathname}`);
      for (const error of takeUnexpectedErrors(response)) ctx.logger.error({ err: error }, 'unexpected error in REST facade');
      // An operation whose success status depends on its outcome chose it on its context.
      const chosen = ctx.rest.status;
      const allowed = route.operation.rest?.otherStatuses;
      const status = chosen && response.ok && allowed?.includes(chosen as 200) ? chosen : response.status;
      return adapterResponse(response, status);
    },
  };
}
