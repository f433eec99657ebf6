// Which requests are reads a replica may answer (db/replicas.ts), and which are writes that send
// the caller's next reads to the primary. Catalog, search, analytics and report reads only:
// everything else (carts, checkout, orders, the caller's own data) always reads the primary.
import { Kind, parse, type OperationDefinitionNode } from 'graphql';

const REPLICA_REST = /^\/api\/(catalog|search|analytics)(\/|$)/;
/** POST routes that only read (analytics' query takes its filters as a body). */
const REPLICA_REST_POST = new Set(['/api/analytics/query']);
const REPLICA_GRAPHQL_FIELDS = new Set([
  'catalogEntities',
  'catalogEntity',
  'catalogCategories',
  'catalogBrands',
  'search',
  'searchSuggestions',
  'analyticsQuery',
  'analyticsMeta',
  'analyticsReports',
  'analyticsReport',
  '__typename',
]);

export type RequestKind = 'replica-read' | 'read' | 'write';

function graphqlKind(query: unknown): RequestKind {
  if (typeof query !== 'string') return 'read'; // a persisted hash alone: APQ documents are queries here
  try {
    const operations = parse(query, { noLocation: true }).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    if (operations.some((o) => o.operation === 'mutation')) return 'write';
    const operation = operations[0];
    const replica =
      operations.length === 1 &&
      operation?.operation === 'query' &&
      operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && REPLICA_GRAPHQL_FIELDS.has(s.name.value));
    return replica ? 'replica-read' : 'read';
  } catch {
    return 'read'; // Yoga answers the syntax error
  }
}

export async function classifyRequest(request: Request, path: string): Promise<RequestKind> {
  const method = request.method;
  if (path === '/graphql') {
    if (method === 'GET') return graphqlKind(new URL(request.url).searchParams.get('query'));
    if (method !== 'POST') return 'read';
    try {
      const body = JSON.parse(await request.clone().text()) as { query?: unknown } | unknown[];
      return Array.isArray(body) ? 'write' : graphqlKind(body.query);
    } catch {
      return 'read';
    }
  }
  if (method === 'GET' || method === 'HEAD') return REPLICA_REST.test(path) ? 'replica-read' : 'read';
  return REPLICA_REST_POST.has(path) ? 'replica-read' : 'write';
}
