// Which requests the response cache may answer, and the key of their answer. Only answers that
// are the same for every caller of a kind: anonymous callers without a cookie or credential, and
// storefront API keys alone (no session, so no :own/:self data) — the callers conditional.ts
// marks `shareable`. Staff, admin keys and sessions are never cached.
//
// The key holds what the answer depends on: the organization, the caller's kind (a storefront
// key may see what an anonymous caller does not), the operation and its arguments (REST: path
// and sorted query; GraphQL: the persisted document's hash, operation name, variables and the
// Accept header that picks the response media type), and — named on their own so that a review
// sees them — the locale, the currency and the customer groups the prices are resolved for: a
// group price is only ever served to a request that named the same groups.
import { createHash } from 'node:crypto';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';

/**
 * REST reads the cache may answer (GET only): catalog list/get and the taxonomy lists. Search is
 * not among them: its documents also change without an outbox event (the search/reindex job, a
 * field definition becoming filterable), which would leave cached answers stale until their TTL.
 */
const REST_PATHS = [/^\/api\/catalog\/entities$/, /^\/api\/catalog\/entities\/[^/]+$/, /^\/api\/catalog\/categories$/, /^\/api\/catalog\/brands$/];

/** Root fields of a persisted GraphQL query the cache may answer: the same catalog reads. */
const GRAPHQL_ROOT_FIELDS = new Set(['catalogEntities', 'catalogEntity', 'catalogCategories', 'catalogBrands', '__typename']);

/** Argument names that carry the locale, currency and customer groups (REST query, GraphQL variables). */
const LOCALE_ARGS = ['locale'];
const CURRENCY_ARGS = ['currency'];
const GROUP_ARGS = ['customerGroupIds', 'customerGroupId', 'groups'];

export interface CacheCaller {
  organizationId: string;
  /** `anonymous` or `key:<scope>`. */
  kind: string;
}

export function isCacheableRestPath(path: string): boolean {
  return REST_PATHS.some((pattern) => pattern.test(path));
}

/** Persisted documents (by sha256) whose every root field is a cacheable catalog read. */
export class PersistedCatalogDocuments {
  private readonly known = new Map<string, boolean>();

  constructor(private readonly max = 1000) {}

  /** Learns a document sent with its hash (APQ registration); verified like the APQ plugin does. */
  learn(hash: string, query: string): boolean {
    const cached = this.known.get(hash);
    if (cached !== undefined) return cached;
    if (createHash('sha256').update(query).digest('hex') !== hash) return false;
    const cacheable = isCatalogQuery(query);
    this.known.set(hash, cacheable);
    if (this.known.size > this.max) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    return cacheable;
  }

  cacheable(hash: string): boolean {
    return this.known.get(hash) === true;
  }
}

function isCatalogQuery(query: string): boolean {
  try {
    const document = parse(query, { noLocation: true });
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const operation = operations[0];
    if (operations.length !== 1 || operation?.operation !== 'query') return false;
    return operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && GRAPHQL_ROOT_FIELDS.has(s.name.value));
  } catch {
    return false;
  }
}

function pick(source: Record<string, unknown>, names: string[]): unknown {
  for (const name of names) if (source[name] !== undefined) return source[name];
  return null;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are one key. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function groupsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return [
    ...new Set(
      list
        .map(String)
        .map((g) => g.trim())
        .filter(Boolean),
    ),
  ].sort();
}

function digest(parts: unknown): string {
  return createHash('sha1').update(canonical(parts)).digest('base64url');
}

export function restKey(caller: CacheCaller, url: URL): string {
  const query: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) (query[name] ??= []).push(value);
  const flat = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
  return digest({
    caller: caller.kind,
    op: `GET ${url.pathname}`,
    query: Object.fromEntries(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    locale: pick(flat, LOCALE_ARGS),
    currency: pick(flat, CURRENCY_ARGS),
    groups: groupsOf(pick(flat, GROUP_ARGS)),
  });
}

export function graphqlKey(caller: CacheCaller, hash: string, operationName: unknown, variables: Record<string, unknown>, accept: string | null): string {
  return digest({
    caller: caller.kind,
    op: `graphql ${hash}`,
    operationName: typeof operationName === 'string' ? operationName : null,
    variables,
    accept: accept ?? '',
    locale: pick(variables, LOCALE_ARGS),
    currency: pick(variables, CURRENCY_ARGS),
    groups: groupsOf(pick(variables, GROUP_ARGS)),
  });
}
