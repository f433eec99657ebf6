// The `route` label of HTTP metrics and the HTTP span's name: the template a request matched
// (`/api/orders/:id`), never its raw path, so ids and probes cannot grow the series count.
// Anything that matches no route is `unmatched`.
import { operations } from '../graphql/operation.js';
import { compileRoute, REST_BASE_PATH, type CompiledRoute } from '../http/path-params.js';
import { registeredRawRoutes } from '../http/raw-routes.js';
import { EXPOSED_AUTH_ENDPOINTS } from '../auth/exposed-endpoints.js';

const STATIC = new Set(['/graphql', '/metrics', '/api/health', '/api/health/ready', '/api/doc', '/api/reference', '/api/reference/standalone.js']);
export const UNMATCHED_ROUTE = 'unmatched';

interface Template {
  method: string;
  pattern: RegExp;
  template: string;
  /** Literal segments win over parameters (/api/products/search before /api/products/:id). */
  params: number;
}

let table: { size: number; raw: number; byMethod: Map<string, Template[]> } | undefined;

function compile(method: string, template: string): Template {
  const source = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:([A-Za-z0-9_]+)/g, '/[^/]+');
  return { method, pattern: new RegExp(`^${source}/?$`), template, params: (template.match(/\/:/g) ?? []).length };
}

/** The first segment under /api (`orders` of /api/orders/:id); `*` when it is a parameter. */
function firstSegment(path: string): string {
  const rest = path.slice('/api/'.length);
  const end = rest.indexOf('/');
  const segment = end < 0 ? rest : rest.slice(0, end);
  return segment.startsWith(':') ? '*' : segment;
}

/**
 * Templates by method and first segment: a request is tested against the few routes of its
 * resource (a handful of regular expressions), not all of them (a scan of every GET route cost
 * about a third of a small REST read's CPU in bench:tracing).
 */
function build(): Map<string, Template[]> {
  const all: Template[] = [];
  for (const op of operations.values()) {
    if (!op.rest) continue;
    const route: CompiledRoute = compileRoute(REST_BASE_PATH, op);
    all.push({ method: route.method, pattern: route.pattern, template: REST_BASE_PATH + op.rest.path, params: route.params.length });
  }
  for (const raw of registeredRawRoutes()) all.push(compile(raw.method, `/api${raw.path}`));
  for (const auth of EXPOSED_AUTH_ENDPOINTS) all.push(compile(auth.method, `/api/auth${auth.path}`));
  const index = new Map<string, Template[]>();
  for (const t of all.sort((a, b) => a.params - b.params)) {
    const key = `${t.method} ${firstSegment(t.template)}`;
    const list = index.get(key) ?? [];
    list.push(t);
    index.set(key, list);
  }
  return index;
}

/** The route template of a request (cached; rebuilt when modules register more operations). */
export function routeTemplate(method: string, pathname: string): string {
  if (STATIC.has(pathname)) return pathname;
  if (!pathname.startsWith('/api/')) return UNMATCHED_ROUTE;
  const raw = registeredRawRoutes().length;
  if (table?.size !== operations.size || table.raw !== raw) table = { size: operations.size, raw, byMethod: build() };
  // HEAD is answered by the GET route; a preflight by whatever route it asks about.
  const lookup = method === 'HEAD' || method === 'OPTIONS' ? 'GET' : method;
  for (const key of [`${lookup} ${firstSegment(pathname)}`, `${lookup} *`]) {
    for (const t of table.byMethod.get(key) ?? []) if (t.pattern.test(pathname)) return t.template;
  }
  return UNMATCHED_ROUTE;
}
