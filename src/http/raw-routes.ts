// Raw routes: the few /api routes that cannot go through sofa because their body is not JSON
// (binary and HTML documents, the payment webhook's raw signed body). A module declares one with
// defineRawRoute at import time, next to the GraphQL operation that shares its service; the HTTP
// app serves it after the same request pipeline (request id, body limit, actor, rate limit,
// origin check, organization) with the same access rules as operations, and /api/doc lists it.
import type { RequestContext } from '../context.js';
import { accessRefusal, accessNote, type Access } from '../graphql/operation.js';
import { appErrorResponse } from './rest-errors.js';

type Json = Record<string, unknown>;

export interface RawRoute {
  method: 'GET' | 'POST';
  /** Path under /api with `:param` segments, e.g. /orders/:id/invoice.pdf. */
  path: string;
  access: Access;
  /** The OpenAPI operation object (summary, tags, responses...); security and the access note are added. */
  openapi: Json;
  handle(ctx: RequestContext, params: Record<string, string>): Promise<Response>;
  /**
   * Serve only requests whose Accept header names this media type (e.g. text/csv): the route is
   * then another representation of a sofa route on the same path, documented by that route, so
   * it adds no OpenAPI entry of its own.
   */
  accept?: string;
}

interface Compiled extends RawRoute {
  pattern: RegExp;
  names: string[];
}

const routes: Compiled[] = [];

/** Every raw route declared so far (the permission matrix and the fuzz property walk them). */
export function registeredRawRoutes(): readonly RawRoute[] {
  return routes;
}

export function defineRawRoute(route: RawRoute): void {
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const source = `/api${route.path}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:([A-Za-z0-9_]+)/g, '/([^/]+)');
  routes.push({ ...route, pattern: new RegExp(`^${source}$`), names });
}

export function matchRawRoute(method: string, pathname: string, accept: string | null = null): { route: RawRoute; params: Record<string, string> } | null {
  for (const route of routes) {
    if (route.method !== method) continue;
    if (route.accept && !accept?.toLowerCase().includes(route.accept)) continue;
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const params = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    return { route, params };
  }
  return null;
}

export async function serveRawRoute(match: { route: RawRoute; params: Record<string, string> }, ctx: RequestContext): Promise<Response> {
  const refusal = accessRefusal(match.route.access, ctx.actor);
  if (refusal) return appErrorResponse(refusal);
  return match.route.handle(ctx, match.params);
}

/**
 * What the shared request pipeline can answer before or around any raw route's handler (an
 * entry the route documents itself wins): no or wrong credentials and missing permission
 * (unless public), a NUL character anywhere in the request (422), the body limit (413), the rate
 * limit (429) and an unexpected error (500).
 */
function pipelineErrors(route: RawRoute): Json {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } });
  const open = route.access === 'public' || route.access === 'signedUrl';
  return {
    ...(open ? {} : { 401: error('No valid credentials (UNAUTHORIZED)'), 403: error('Missing permission, or a cookie request from an untrusted origin (FORBIDDEN)') }),
    ...(route.method === 'POST' ? { 413: error('Body above the limit (PAYLOAD_TOO_LARGE)') } : {}),
    422: error('A NUL (U+0000) character in the path, query or body (VALIDATION_FAILED)'),
    429: error('Rate limit exceeded (TOO_MANY_REQUESTS); see Retry-After'),
    500: error('Unexpected error (INTERNAL_ERROR)'),
  };
}

/** The raw routes as OpenAPI paths. */
export function rawRouteDocs(): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (route.accept) continue;
    const key = `/api${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
    const description = [route.openapi.description, accessNote(route.access)].filter(Boolean).join('\n\n');
    const security = route.access === 'public' || route.access === 'signedUrl' ? [] : [{ apiKey: [] }, { bearerAuth: [] }, { sessionCookie: [] }];
    const parameters = route.names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    const responses = { ...pipelineErrors(route), ...(route.openapi.responses as Json | undefined) };
    paths[key] = { ...(paths[key] ?? {}), [route.method.toLowerCase()]: { ...route.openapi, description, security, ...(parameters.length ? { parameters } : {}), responses } };
  }
  return paths;
}
