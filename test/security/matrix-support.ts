// The generated permission matrix's checks, shared by the core matrix
// (test/security/permission-matrix.test.ts) and the all-plugins one (test/plugins/matrix.test.ts):
// every route (REST) or field (GraphQL) called by every actor with real ids and a minimal valid
// input, each answer checked against the operation's declared access rule:
//   refused by the rule → 401 (no credential) or 403 (credential without the permission);
//   allowed             → neither 401 nor 403 (unless excused: a handler that needs an identity
//                         the caller lacks), and never 5xx; every 4xx with the error envelope;
// and no 2xx carries an id the caller's organization must not see (`leaked`).
import { getNamedType, isLeafType, isNonNullType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { accessRefusal, type Access, type RegisteredOperation } from '../../src/graphql/operation.js';
import { hasPermission } from '../../src/auth/permissions.js';
import { buildSchema } from '../../src/schema.js';
import type { TestApp } from '../support/app.js';
import { buildArgs, buildRequest, type Credential, type IdPool, type Route } from './registry-inputs.js';

export interface MatrixActor {
  name: string;
  credential: Credential;
  /**
   * Permissions per the configured role or key scope; null when anonymous. A key with a session:
   * the role's ∩ the scope's (keyAndSession below).
   */
  permissions: string[] | null;
  /** A customer profile behind the credential (the /me routes); default: the name says customer. */
  customerId?: string;
  /** Of another organization: its 2xx bodies must hold none of this organization's ids. */
  other?: boolean;
}

export interface MatrixOptions {
  /** Ids in a 2xx body this actor must not see (the request's own ids aside). */
  leaked(actor: MatrixActor, body: unknown, request: string): string[];
  /** A refusal (401/403) the rule does not predict but the operation's handler rightly gives this actor. */
  excused?(operation: string, actor: MatrixActor, status: 401 | 403): boolean;
}

export function expectedRefusal(access: Access, actor: MatrixActor): 401 | 403 | null {
  // The matrix sends no signature: a signed-URL route refuses everyone it calls.
  if (access === 'signedUrl') return 403;
  // A key with a session is the session's user (bounded by the key): kind user.
  const kind = actor.credential.bearer ? 'user' : actor.credential.apiKey ? 'apiKey' : 'user';
  const customerId = actor.customerId ?? (actor.name.includes('customer') ? 'customer' : undefined);
  const refusal = accessRefusal(access, actor.permissions ? { permissions: actor.permissions, kind, customerId } : null);
  return refusal ? (refusal.code === 'UNAUTHORIZED' ? 401 : 403) : null;
}

/**
 * A 403 the declared rule does not predict is still right when the handler names a permission
 * the caller really lacks (carts are public for guest shoppers, yet a signed-in caller needs
 * cart:read: the spec gives staff cart create and update only).
 */
export function justified(actor: MatrixActor, message: unknown): boolean {
  const missing = typeof message === 'string' ? /missing permission ([a-z*:-]+)/i.exec(message)?.[1] : undefined;
  return !!missing && !!actor.permissions && !hasPermission(actor.permissions, missing);
}

/** Every route × every actor over REST; returns the problems found and the number of calls. */
export async function restMatrix(t: TestApp, doc: Record<string, any>, pool: IdPool, routes: Route[], actors: MatrixActor[], options: MatrixOptions) {
  const problems: string[] = [];
  let calls = 0;
  for (const route of routes) {
    const request = await buildRequest(doc, route, pool);
    for (const actor of actors) {
      const res = await t.request(request.path, { method: request.method, body: request.body, ...actor.credential });
      calls += 1;
      const label = `${route.method} ${route.path} as ${actor.name} → ${res.status}`;
      const want = expectedRefusal(route.access, actor);
      const refusedAnyway = (res.status === 401 || res.status === 403) && !justified(actor, res.body?.error?.message) && !options.excused?.(route.name, actor, res.status);
      if (res.status >= 500) problems.push(`${label}: server error ${res.text.slice(0, 200)}`);
      else if (want !== null && res.status !== want) problems.push(`${label}: expected ${want}`);
      else if (want === null && refusedAnyway) problems.push(`${label}: expected access (${res.text.slice(0, 160)})`);
      if (res.status >= 400 && !(res.body && typeof res.body === 'object' && res.body.error?.code && res.body.error?.message)) problems.push(`${label}: no error envelope`);
      if (res.status < 300) {
        const leaks = options.leaked(actor, res.body, request.path + JSON.stringify(request.body ?? null));
        if (leaks.length) problems.push(`${label}: LEAK of ${leaks.slice(0, 3).join(', ')}`);
      }
    }
  }
  return { problems, calls };
}

/** Every operation × every actor over GraphQL, with the variables its REST twin would send. */
export async function graphqlMatrix(
  t: TestApp,
  doc: Record<string, any>,
  pool: IdPool,
  ops: RegisteredOperation[],
  routes: Route[],
  actors: MatrixActor[],
  options: MatrixOptions,
) {
  const schema = buildSchema();
  const restByName = new Map(routes.map((r) => [r.name, r]));
  const problems: string[] = [];
  let calls = 0;
  for (const op of ops) {
    const route = restByName.get(op.name);
    const args = route ? (await buildRequest(doc, route, pool)).args : await buildArgs(op, pool);
    const document = graphqlDocument(schema, op.kind, op.name, args);
    for (const actor of actors) {
      const res = await t.request('/graphql', { method: 'POST', body: { query: document.query, variables: document.variables }, ...actor.credential });
      calls += 1;
      const errors: any[] = res.body?.errors ?? [];
      const codes: string[] = errors.map((e) => e.extensions?.code ?? 'NONE');
      const label = `graphql ${op.name} as ${actor.name} → ${res.status} ${codes.join(',') || 'ok'}`;
      const want = expectedRefusal(op.access, actor);
      const wantCode = want === 401 ? 'UNAUTHORIZED' : want === 403 ? 'FORBIDDEN' : null;
      const refusedAnyway = errors.some((e) => {
        const status = e.extensions?.code === 'UNAUTHORIZED' ? 401 : e.extensions?.code === 'FORBIDDEN' ? 403 : null;
        return status !== null && !justified(actor, e.message) && !options.excused?.(op.name, actor, status);
      });
      if (res.status >= 500 || codes.some((c) => c === 'INTERNAL_SERVER_ERROR' || c === 'NONE')) problems.push(`${label}: server error ${res.text.slice(0, 200)}`);
      else if (wantCode && !codes.includes(wantCode)) problems.push(`${label}: expected ${wantCode}`);
      else if (!wantCode && refusedAnyway) problems.push(`${label}: expected access (${res.text.slice(0, 160)})`);
      if (res.body?.data) {
        const leaks = options.leaked(actor, res.body.data, JSON.stringify(document.variables));
        if (leaks.length) problems.push(`${label}: LEAK of ${leaks.slice(0, 3).join(', ')}`);
      }
    }
  }
  return { problems, calls };
}

/** `query ($a: T!) { field(a: $a) { scalar fields } }` with the variables the REST twin would send. */
export function graphqlDocument(schema: GraphQLSchema, kind: 'query' | 'mutation', name: string, input: Record<string, unknown>) {
  const root = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  const field = root.getFields()[name]! as GraphQLField<unknown, unknown>;
  const variables: Record<string, unknown> = {};
  const defs: string[] = [];
  const passed: string[] = [];
  for (const arg of field.args) {
    if (!(arg.name in input) && !isNonNullType(arg.type)) continue;
    variables[arg.name] = arg.name in input ? input[arg.name] : null;
    defs.push(`$${arg.name}: ${String(arg.type)}`);
    passed.push(`${arg.name}: $${arg.name}`);
  }
  const query = `${kind}${defs.length ? `(${defs.join(', ')})` : ''} { ${name}${passed.length ? `(${passed.join(', ')})` : ''}${selection(field.type, 0)} }`;
  return { query, variables };
}

function selection(type: Parameters<typeof getNamedType>[0], depth: number): string {
  const named = getNamedType(type);
  if (isLeafType(named) || !isObjectType(named)) return isLeafType(named) ? '' : ' { __typename }';
  const fields = Object.values(named.getFields()).filter((f) => !f.args.some((a) => isNonNullType(a.type)));
  const parts = fields.flatMap((f) => {
    const inner = getNamedType(f.type);
    if (isLeafType(inner)) return [f.name];
    // One level of nesting: pages (`data`, `meta`) and embedded objects, so nested resolvers run too.
    return depth < 1 && isObjectType(inner) ? [`${f.name}${selection(f.type, depth + 1)}`] : [];
  });
  return ` { ${parts.length ? parts.join(' ') : '__typename'} }`;
}

/**
 * The permissions of a key and a session together, per the actor rule: what both the role and the
 * key's scope grant. Computed here from the lists (not with the server's function): each grant
 * of one list that the other list also covers, by exact name, `module:*` or `*:*`.
 */
export function keyAndSession(role: readonly string[], scope: readonly string[]): string[] {
  const covers = (list: readonly string[], p: string) => list.includes('*:*') || list.includes(p) || list.includes(`${p.split(':')[0]}:*`);
  return [...new Set([...role.filter((p) => covers(scope, p)), ...scope.filter((p) => covers(role, p))])];
}

/** A key alone: its `:own`/`:self` grants name a shopper it does not have, so they do not apply. */
export function keyAlone(scope: readonly string[]): string[] {
  return scope.filter((p) => !/:(own|self)$/.test(p));
}
