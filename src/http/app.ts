// Composes the HTTP app. No business logic here: every request goes
//   request id → CORS preflight → body limit → actor → rate limit → origin check → organization
// and then to better-auth (/api/auth/*), a meta handler (/api/health, /api/doc, /api/reference)
// or Yoga (/graphql) or the sofa REST facade (/api/*, beside Yoga: http/rest-facade.ts).
import { performance } from 'node:perf_hooks';
import type { RequestContext, OrganizationRef } from '../context.js';
import type { Runtime } from '../runtime.js';
import { AppError } from '../errors.js';
import { isClientAbort, type Logger } from '../logger.js';
import { ActorResolutionError, createActorResolver, type Actor } from '../auth/actor.js';
import { authCall } from '../auth/better-auth.js';
import { buildSchema } from '../graphql/schema.js';
import { createGraphqlServer } from '../graphql/yoga.js';
import { readBody, BodyTimeoutError, BodyTooLargeError, MULTIPART_ALLOWANCE_BYTES } from './body.js';
import { corsHeaders, corsOrigins, preflightResponse } from './cors.js';
import { originRefusal, withoutFetchMetadataForCredentiallessClient } from './origin-check.js';
import { createRateLimiter, requestRateLimit, setRateLimitHeaders, type Budget, type RateDecision } from './rate-limit.js';
import { rejectNulCharacters } from './input-guard.js';
import { admitAuthRequest } from './auth-budget.js';
import { revokeSessionById, withoutSessionTokens } from './auth-sessions.js';
import { isExposedAuthEndpoint } from '../auth/exposed-endpoints.js';
import { requestIdFor } from './request-id.js';
import { appErrorResponse, databaseUnavailableResponse, errorResponse } from './rest-errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { drainingResponse, livenessResponse, readinessResponse } from './health.js';
import { referenceBundle, referencePage } from './docs.js';
import { buildOpenApiDocument } from './openapi.js';
import { wrapAuthResponse } from './auth-response.js';
import { matchRawRoute, serveRawRoute } from './raw-routes.js';
import { conditional } from './conditional.js';
import { AnswerHeaders, type HeaderSet } from './answer-headers.js';
import { hasPermission, MEDIA_WRITE } from '../auth/permissions.js';
import { METRICS_PATH, metricsAnswer, metricsEnabled, metricsOnApiPort } from '../observability/metrics-http.js';
import { DEFAULT_SQL_STATEMENTS_SAMPLE_RATE, requestObserver } from '../observability/request-observer.js';
import { createHttpResponseCache } from '../cache/http.js';
import type { CacheCaller } from '../cache/key.js';
import { takeCacheTouched } from '../events/cache-signal.js';
import { createReplicaSet, type Replica } from '../db/replicas.js';
import { createWriteLog } from '../db/read-your-writes.js';
import { classifyRequest } from './read-routing.js';
import { ioredis } from '../lazy.js';
import { createAdminServer, isAdminPath } from './admin.js';

export interface HttpAppDeps extends Pick<Runtime, 'config' | 'db' | 'auth' | 'services' | 'logger'>, Partial<Pick<Runtime, 'databaseUrl' | 'directUrl'>> {
  version: string;
}

export interface HttpApp {
  fetch(request: Request, server?: { clientAddress?: string }): Promise<Response>;
  /** Shutdown has begun (listen.ts shutdown()): readiness answers 503 from now on. */
  drain?(): void;
  close(): Promise<void>;
}

const TOO_MANY_MESSAGE = 'Rate limit exceeded; retry after the number of seconds in Retry-After';

/** Who is calling and what their first point cost, decided from the headers alone. */
interface Admission {
  actor: Actor | null;
  budget: { budget: 'authenticated' | 'anonymous'; key: string; apiKey?: boolean };
  rate: RateDecision;
}

/** JSON answers are whole strings already (nothing streams them), so they are sent as one buffer. */
function isJson(headers: HeaderSet): boolean {
  const type = headers.get('content-type') ?? '';
  return type.startsWith('application/json') || type.startsWith('application/graphql-response+json');
}

/** Statuses that never carry a body (RFC 9110 §15.3.5, §15.3.6, §15.4.5). */
const BODILESS = new Set([204, 205, 304]);

/**
 * What the server adapter sends: the bytes or null conditional() settled, or, when it left the
 * answer untagged (`undefined`), the response's own body. A JSON answer goes out as its bytes in
 * one buffer, read with arrayBuffer() and never through the `body` getter, which on whatwg-node's
 * Response builds a stream over a fresh encoding of the text (every POST answer paid for both).
 */
async function sendableBody(response: Response, body: Uint8Array<ArrayBuffer> | null | undefined, headers: HeaderSet): Promise<BodyInit | null> {
  if (body !== undefined) return body;
  return isJson(headers) && !BODILESS.has(response.status) ? new Uint8Array(await response.arrayBuffer()) : response.body;
}

export function createHttpApp(deps: HttpAppDeps): HttpApp {
  const { config, db, auth, services, logger, version } = deps;
  const schema = buildSchema();
  const production = config.env === 'production';
  const { yoga, facade, lane } = createGraphqlServer({
    schema,
    limits: config.graphql,
    version,
    logger,
    metrics: metricsEnabled(config) ? services.metrics : null,
    executionSlots: config.executionSlots,
    exposure: {
      graphiql: config.graphql.graphiql ?? !production,
      publicIntrospection: config.graphql.publicIntrospection ?? !production,
      suggestions: config.graphql.suggestions ?? !production,
      costPerPoint: config.rateLimit.graphqlCostPerPoint,
      jit: config.graphql.jit,
    },
  });
  const actors = createActorResolver(auth, config, db);
  const limiter = createRateLimiter(config);
  const baseOrigin = new URL(config.baseUrl ?? `http://localhost:${config.port}`).origin;
  const trusted = new Set([baseOrigin, ...config.auth.trustedOrigins]);
  /** Origins answered with CORS headers: cors.origins plus the cookie-trusted ones (http/cors.ts). */
  const cors = corsOrigins(config.cors.origins, trusted);
  let openApi: string | null = null;
  let draining = false;
  const metricsApi = metricsOnApiPort(config);
  const serveAdmin = createAdminServer();
  // Requests are measured (and traced) only when something reads the result: zero cost otherwise.
  const { observed, observe } = requestObserver({
    metrics: metricsEnabled(config) ? services.metrics : null,
    sqlStatementsSampleRate: config.metrics.sqlStatementsSampleRate ?? DEFAULT_SQL_STATEMENTS_SAMPLE_RATE,
  });
  // The shared response cache of storefront catalog reads (src/cache); null when disabled.
  const databaseUrl = deps.directUrl ?? deps.databaseUrl ?? config.databaseUrl;
  const responseCache = databaseUrl
    ? createHttpResponseCache({ config, databaseUrl, logger, metrics: metricsEnabled(config) ? services.metrics : null, fetchAPI: yoga.fetchAPI })
    : null;

  // Read replicas (db/replicas.ts): null without DATABASE_REPLICA_URLS, and then no request is
  // classified at all (classifyRequest parses GraphQL documents).
  const replicas = config.database.replicaUrls.length
    ? createReplicaSet(config.database.replicaUrls, {
        healthIntervalMs: config.database.replicaHealthIntervalMs,
        connectTimeoutMs: config.database.replicaConnectTimeoutMs,
        maxLagMs: config.database.replicaMaxLagMs,
      })
    : null;
  const writeRedis = replicas && config.redisUrl ? new (ioredis().Redis)(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : null;
  writeRedis?.on('error', () => undefined); // unreachable: each process remembers its own callers' writes
  const writeLog = replicas ? createWriteLog(config.database.readYourWritesMs, writeRedis, `${config.rateLimit.keyPrefix}:ryw`) : null;

  /** Who the answer is the same for (conditional.ts `shareable`), as the cache keys it; null: not cacheable. */
  function cacheCaller(request: Request, actor: Actor | null, organization: OrganizationRef): CacheCaller | null {
    if (actor === null) return request.headers.has('cookie') || request.headers.has('authorization') ? null : { organizationId: organization.id, kind: 'anonymous' };
    if (actor.kind === 'apiKey' && actor.scope === 'storefront' && !hasPermission(actor.permissions, MEDIA_WRITE))
      return { organizationId: organization.id, kind: 'key:storefront' };
    return null;
  }

  function openApiDocument(): string {
    if (!openApi) {
      // sofa builds its router on Yoga's first schema event; a request has passed by now.
      const secure = baseOrigin.startsWith('https://');
      const cookieName = `${secure ? '__Secure-' : ''}${config.auth.cookiePrefix}.session_token`;
      openApi = JSON.stringify(buildOpenApiDocument(facade.restSchema(), { title: 'Commerce API', version, cookieName }));
    }
    return openApi;
  }

  async function resolveOrganization(request: Request, actor: Actor | null): Promise<OrganizationRef> {
    let organization: OrganizationRef | null = null;
    if (config.storeResolver) {
      const id = await config.storeResolver(request);
      organization = id ? await services.organizations.byId(id) : null;
      if (!organization && config.strictOrgResolution) {
        throw new AppError('SERVICE_UNAVAILABLE', 'No organization serves this request');
      }
    }
    if (!organization && actor) organization = await services.organizations.byId(actor.organizationId);
    organization ??= await services.organizations.defaultOrganization();
    if (actor && actor.organizationId !== organization.id) {
      throw new AppError('FORBIDDEN', 'These credentials belong to another organization');
    }
    return organization;
  }

  function clientKey(server?: { clientAddress?: string }): string {
    return server?.clientAddress ?? 'unknown';
  }

  function limit(budget: Budget, key: string): Promise<RateDecision> {
    return limiter.consume(budget, key);
  }

  async function callerUserId(request: Request): Promise<string | null> {
    return (await actors.resolve(request.headers))?.userId ?? null;
  }

  /** The signed-in caller's email: the key of the sign-in budget its password checks spend. */
  async function callerEmail(request: Request): Promise<string | null> {
    const userId = await callerUserId(request);
    if (!userId) return null;
    const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
    return user?.email.toLowerCase() ?? null;
  }

  /** Identifies the caller and charges its budget (one point); headers only, never the body. */
  async function admit(request: Request, server?: { clientAddress?: string }): Promise<Admission> {
    const actor = await actors.resolve(request.headers);
    const budget = actor
      ? { budget: 'authenticated' as const, key: actor.kind === 'apiKey' ? `key:${actor.apiKeyId}` : `user:${actor.userId}`, apiKey: actor.kind === 'apiKey' }
      : { budget: 'anonymous' as const, key: clientKey(server) };
    return { actor, budget, rate: await limit(budget.budget, budget.key) };
  }

  /**
   * An upload's body may be as large as the media limit, so it is read only for a caller who
   * may upload and has budget left (finding: anonymous chunked multipart bodies were buffered
   * before anyone was identified). The refusal closes the connection: the body is still in flight.
   */
  async function admitUpload(request: Request, server?: { clientAddress?: string }): Promise<{ admission: Admission; refusal?: Response }> {
    const admission = await admit(request, server);
    const close = { connection: 'close' };
    if (!admission.rate.allowed) return { admission, refusal: errorResponse(429, 'TOO_MANY_REQUESTS', TOO_MANY_MESSAGE, undefined, close) };
    if (!admission.actor) {
      return {
        admission,
        refusal: errorResponse(401, 'UNAUTHORIZED', 'Uploads need a credential: send a session cookie, a bearer token or an x-api-key header', undefined, close),
      };
    }
    return { admission };
  }

  /** Runs one request; returns the response and the rate decision whose headers it carries. */
  async function route(
    request: Request,
    url: URL,
    scope: { requestId: string; logger: Logger },
    server?: { clientAddress?: string },
    admitted?: Admission,
  ): Promise<{ response: Response; rate?: RateDecision; actor?: Actor | null }> {
    const path = url.pathname;
    if (request.method === 'OPTIONS') return { response: preflightResponse(request, cors) };

    if (path === METRICS_PATH && metricsApi.served) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return { response: errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${path}`) };
      const answer = await metricsAnswer(services.metrics, request.headers.get('authorization'), metricsApi.token);
      return { response: new Response(answer.body, { status: answer.status, headers: answer.headers }) };
    }

    if (path === '/api/health' || path === '/api/health/ready' || path === '/api/doc' || path === '/api/reference' || path === '/api/reference/standalone.js') {
      const rate = await limit('anonymous', clientKey(server));
      if (!rate.allowed) return { response: tooMany(), rate };
      if (request.method !== 'GET' && request.method !== 'HEAD') return { response: errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${path}`), rate };
      if (path === '/api/health') return { response: livenessResponse(version), rate };
      if (path === '/api/health/ready') return { response: draining ? drainingResponse(version) : await readinessResponse(db, version), rate };
      if (path === '/api/doc') return { response: new Response(openApiDocument(), { headers: { 'content-type': 'application/json; charset=utf-8' } }), rate };
      return { response: path === '/api/reference' ? referencePage() : referenceBundle(), rate };
    }

    if (path.startsWith('/api/auth/')) {
      // better-auth mounts more than may face the public (its API-key endpoints mint keys for
      // any organization): only the listed endpoints answer (auth/exposed-endpoints.ts).
      if (!isExposedAuthEndpoint(config, request.method, path.slice('/api/auth'.length))) {
        return { response: errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${path}`) };
      }
      const admitted = await admitAuthRequest(request, path, { limit, address: clientKey(server), callerEmail });
      const rate = admitted.rate;
      if (!rate.allowed) return { response: tooMany(), rate };
      const refusal = originRefusal(request, trusted);
      if (refusal) return { response: errorResponse(403, 'FORBIDDEN', refusal), rate };
      const organization = await resolveOrganization(request, null);
      const forAuth = await revokeSessionById(path, await withoutFetchMetadataForCredentiallessClient(admitted.request), { db, callerUserId });
      const response = await authCall(() => auth.handler(forAuth), { organizationId: organization.id });
      return { response: await wrapAuthResponse(await withoutSessionTokens(path, response)), rate };
    }

    // The dashboard's static files (http/admin.ts): anonymous budget, like the reference page.
    if (isAdminPath(path)) {
      const rate = await limit('anonymous', clientKey(server));
      if (!rate.allowed) return { response: tooMany(), rate };
      return { response: serveAdmin(request, path), rate };
    }

    if (path !== '/graphql' && !path.startsWith('/api/')) {
      return { response: errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${path}`) };
    }

    const { actor, budget, rate } = admitted ?? (await admit(request, server));
    if (!rate.allowed) return { response: tooMany(), rate };
    const refusal = originRefusal(request, trusted);
    if (refusal) return { response: errorResponse(403, 'FORBIDDEN', refusal), rate };
    if (actor?.twoFactorEnrolmentRequired) {
      return {
        response: errorResponse(403, 'TWO_FACTOR_REQUIRED', `Role ${actor.role} must use two-factor sign-in: enrol at POST /api/auth/two-factor/enable, then sign in again`),
        rate,
      };
    }
    const rateLimit = requestRateLimit(limiter, budget, rate);
    const organization = await resolveOrganization(request, actor);
    // A replica answers catalog, search, analytics and report reads, unless this caller wrote
    // within the read-your-writes window; a write starts that window.
    let replica: Replica | null = null;
    // writeLog is created exactly when replicas are.
    if (replicas && writeLog) {
      const kind = await classifyRequest(request, path);
      if (kind === 'write') writeLog.wrote(budget.key);
      else if (kind === 'replica-read' && !(await writeLog.recentlyWrote(budget.key))) replica = replicas.pick();
    }
    const ctx: RequestContext = {
      requestId: scope.requestId,
      request,
      actor,
      organization,
      db: replica?.db ?? db,
      services,
      logger: scope.logger,
      config,
      loaders: new Map(),
      rest: {},
      rateLimit,
    };
    // Documents and the payment webhook: not JSON, so served beside sofa (http/raw-routes.ts).
    const raw = matchRawRoute(request.method, path, request.headers.get('accept'));
    if (raw) return { response: await answeredWrite(scope.requestId, await serveRawRoute(raw, ctx)), rate, actor };
    const caller = responseCache ? cacheCaller(request, actor, organization) : null;
    const lookup = responseCache && caller ? await responseCache.lookup(request, url, caller) : null;
    if (responseCache && lookup) {
      const cached = await responseCache.hit(lookup);
      if (cached) return { response: cached, rate, actor };
    }
    // /graphql through Yoga; every other /api path through the REST facade, beside Yoga.
    const answer = (req: Request, c: RequestContext): Promise<Response> => (path === '/graphql' ? graphql(req, c) : facade.serve(req, path, c));
    let response: Response;
    if (replica) {
      // A replica that cannot answer (down, restarting) fails the read over to the primary,
      // once, and stays out until its health check passes.
      const retry = request.clone();
      response = await answer(request, ctx);
      if (ctx.rest.retryAfterSeconds) {
        // biome-ignore lint/style/noNonNullAssertion: replica is only ever set from replicas.pick() above
        replicas!.markDown(replica);
        scope.logger.warn({ replica: new URL(replica.url).host }, 'read replica unavailable; read answered by the primary');
        const primaryCtx: RequestContext = { ...ctx, db, loaders: new Map(), rest: {} };
        response = await answer(retry, primaryCtx);
        ctx.rest = primaryCtx.rest;
      }
    } else response = await answeredWrite(scope.requestId, await answer(request, ctx));
    if (responseCache && lookup) response = await responseCache.store(lookup, response);
    if (ctx.rest.retryAfterSeconds && !response.headers.has('retry-after')) response.headers.set('retry-after', String(ctx.rest.retryAfterSeconds));
    return { response, rate: rateLimit.last ?? rate, actor };
  }

  /** /graphql: the fast lane when it can answer exactly as Yoga would (graphql/fast-lane.ts), else Yoga. */
  async function graphql(request: Request, ctx: RequestContext): Promise<Response> {
    return (config.graphql.fastLane ? await lane.serve(request, ctx) : null) ?? yoga.fetch(request, { ctx });
  }

  /**
   * A request that changed what catalog reads answer (events/cache-signal.ts) drops its
   * organization's cached reads before its answer goes out: the caller's next read sees it.
   */
  async function answeredWrite(requestId: string, response: Response): Promise<Response> {
    const organizationId = takeCacheTouched(requestId);
    if (organizationId && responseCache) await responseCache.invalidate(organizationId);
    return response;
  }

  /**
   * Uploads (POST /api/media/upload, and multipart requests to /graphql) may be as large as the
   * media limit plus multipart framing; the upload parser then holds the file itself to the limit.
   */
  function isUpload(request: Request, path: string): boolean {
    const multipart = /^multipart\/form-data/i.test(request.headers.get('content-type') ?? '');
    return request.method === 'POST' && multipart && (path === '/api/media/upload' || path === '/api/catalog/import' || path === '/graphql');
  }

  function bodyLimitFor(request: Request, path: string): number {
    return isUpload(request, path) ? Math.max(config.bodyLimitBytes, config.media.maxUploadBytes + MULTIPART_ALLOWANCE_BYTES) : config.bodyLimitBytes;
  }

  function tooMany(): Response {
    return errorResponse(429, 'TOO_MANY_REQUESTS', TOO_MANY_MESSAGE);
  }

  /** One request through the whole pipeline, metrics and tracing aside (fetch below). */
  async function serve(incoming: Request, server?: { clientAddress?: string }): Promise<Response> {
    {
      const requestId = requestIdFor(incoming);
      const requestLogger = logger.child({ reqId: requestId });
      // The request's id and logger travel in its context (ctx.requestId, ctx.logger), not in an
      // AsyncLocalStorage: on Node 20 one costs 11–15% of a request's CPU (error-masking.ts).
      {
        const started = performance.now();
        const url = new URL(incoming.url);
        let response: Response;
        let rate: RateDecision | undefined;
        let actor: Actor | null | undefined;
        const bodyLimit = bodyLimitFor(incoming, url.pathname);
        try {
          const upload = isUpload(incoming, url.pathname) ? await admitUpload(incoming, server) : undefined;
          if (upload?.refusal) {
            ({ actor, rate } = upload.admission);
            response = upload.refusal;
          } else {
            const request = await readBody(incoming, bodyLimit, config.bodyReadTimeoutMs, yoga.fetchAPI);
            await rejectNulCharacters(request, url);
            ({ response, rate, actor } = await route(request, url, { requestId, logger: requestLogger }, server, upload?.admission));
          }
        } catch (error) {
          if (error instanceof BodyTimeoutError) {
            // The client stopped sending; what it may still send is not read (nor waited for).
            response = errorResponse(408, 'REQUEST_TIMEOUT', `Request body not received within ${config.bodyReadTimeoutMs} ms`, undefined, { connection: 'close' });
          } else if (error instanceof BodyTooLargeError) {
            // The rest of the body is still in flight: close the connection rather than leave
            // unread bytes in front of the next request on it.
            response = errorResponse(413, 'PAYLOAD_TOO_LARGE', `Request body above ${bodyLimit} bytes`, undefined, { connection: 'close' });
          } else if (error instanceof AppError) {
            response = appErrorResponse(error);
          } else if (isClientAbort(error) || incoming.signal?.aborted) {
            // The client hung up; nobody reads this answer. Not a server error.
            requestLogger.debug({ path: url.pathname, method: incoming.method }, 'client closed the request');
            response = errorResponse(499, 'CLIENT_CLOSED_REQUEST', 'The client closed the request');
          } else if (isDatabaseUnavailable(error)) {
            // An outage, not a bug: 503 with Retry-After, whatever stage met it (a session
            // check that cannot reach the database is still never treated as anonymous).
            const stage = error instanceof ActorResolutionError ? error.stage : 'request';
            requestLogger.warn({ err: error, stage, path: url.pathname, method: incoming.method }, 'database unavailable');
            response = databaseUnavailableResponse();
          } else {
            const stage = error instanceof ActorResolutionError ? error.stage : 'request';
            requestLogger.error({ err: error, stage, path: url.pathname, method: incoming.method }, 'request failed');
            response = errorResponse(500, 'INTERNAL_ERROR', 'Internal server error');
          }
        }
        // Copied once into a plain record (http/answer-headers.ts), whichever Headers class the
        // handler's answer carries.
        const headers = new AnswerHeaders(response.headers);
        headers.set('x-request-id', requestId);
        if (rate) setRateLimitHeaders(headers, rate);
        if (response.status === 429 && !headers.has('retry-after')) headers.set('retry-after', String(rate?.retryAfter ?? 1));
        for (const [name, value] of Object.entries(corsHeaders(incoming, cors))) {
          // Vary adds to what the handler varied on (Accept-Encoding...), never replaces it.
          if (name === 'vary') {
            if (!/\borigin\b/i.test(headers.get('vary') ?? '')) headers.append('vary', value);
          } else headers.set(name, value);
        }
        const { status, body } = await conditional(
          {
            method: incoming.method,
            path: url.pathname,
            ifNoneMatch: incoming.headers.get('if-none-match'),
            // A key that manages media sees sold files (media/service.ts): its answers stay private.
            shareable:
              actor === null ? !incoming.headers.has('cookie') : actor?.kind === 'apiKey' && actor.scope === 'storefront' && !hasPermission(actor.permissions, MEDIA_WRITE),
          },
          response,
          headers,
        );
        requestLogger.info({ method: incoming.method, path: url.pathname, status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
        // whatwg-node's Response (Yoga's fetch API), not Node's global one: the server adapter
        // writes its buffer in one call, where Node's would wrap the bytes in a ReadableStream the
        // adapter then pumps chunk by chunk (~4% of a small request's CPU in the profile).
        const sendable = await sendableBody(response, body, headers);
        return new yoga.fetchAPI.Response(sendable, { status, headers: headers.toInit(yoga.fetchAPI.Headers) });
      }
    }
  }

  return {
    fetch(incoming, server) {
      if (!observed) return serve(incoming, server);
      return observe(incoming, (request) => serve(request, server));
    },
    drain() {
      draining = true;
    },
    async close() {
      await responseCache?.close();
      await replicas?.close();
      writeRedis?.disconnect();
      await limiter.close();
      await yoga.dispose?.();
    },
  };
}
