// The route builder: the one way a module or a plugin declares an operation. One declaration
// gives the GraphQL field (with its scope-auth permission and zod-validated arguments), the REST
// route sofa generates from that field, and the OpenAPI entry for it.
//
//   defineOperation({
//     name: 'settingsGroup', kind: 'query', summary: 'One settings group',
//     rest: { method: 'GET', path: '/settings/:group' },
//     permission: 'settings:manage',
//     input: { group: z.string() },
//     output: 'JSONObject',
//     resolve: (ctx, input) => settings.getGroup(ctx, input.group),
//   });
//
// Audit: every mutation that needs a permission is audited without a word from its module. The
// handler runs inside one transaction (its `ctx.db` is the transaction client, and services'
// own transactions nest in it), and the audit entry is written in that transaction after the
// handler returns: the write and its audit entry commit together or not at all. Defaults: the
// event is `<module>.<action>` (module = the required permission's module, action = the field
// name without the module word: catalogEntityCreate → catalog.entityCreate, settingsUpdate →
// settings.update); the entity is the returned object (type from the output type's name in
// snake_case, id from its `id`), else the module and the first path parameter; `after` is the
// returned object. An operation refines this with `audit: { event, entityType, entityId, before,
// after }` (before is read inside the transaction, before the handler runs), opts a
// non-privileged mutation in with `audit: {}`, or opts out with `audit: false` (say why).
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { AppError, forbidden, validationFailed, type FieldIssue } from '../errors.js';
import { hasAnyPermission, hasPermission } from '../auth/permissions.js';
import { inTransaction, withTransaction } from '../db/transaction.js';
import { builder } from './builder.js';
import { argumentHint, graphqlArgType, normalizeArgs } from './zod-args.js';
import { declaredPageArgument, type ListSize } from './cost.js';

type AnyZod = z.core.$ZodType;
type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
  method: HttpMethod;
  /** Path under /api, with `:param` segments named like the input keys they fill. */
  path: string;
  /** Success status: 201 for creates, 200 otherwise. */
  status?: 200 | 201 | 202 | 204;
  /** Other success statuses the operation may choose through `ctx.rest.status` (documented too). */
  otherStatuses?: ReadonlyArray<200 | 201 | 202>;
  /**
   * The input key that receives the whole JSON body, for routes whose body is the value itself
   * (PATCH /settings/:group takes the patch object, not `{ values: {...} }`).
   */
  bodyAs?: string;
  /**
   * Query parameters named `<prefix><name>` (e.g. `attr.color=red`, repeatable) reach the list
   * argument `arg` as `<name>=<value>` items: GraphQL argument names cannot hold a dot, and the
   * contract's names are fixed.
   */
  queryPrefix?: { prefix: string; arg: string };
  /**
   * Path parameters whose public name differs from the input key they fill, e.g.
   * `{ id: 'idOrNumber' }` for `/orders/:id`: one resource keeps one parameter name across its
   * routes in /api/doc (`{id}`), while the GraphQL argument keeps its own name. The URL itself
   * is the same either way.
   */
  pathArgs?: Record<string, string>;
  /**
   * Input keys that exist over REST only, read from the query string by the facade and never
   * GraphQL arguments: `include` names a REST answer's embeds, while in GraphQL the selection is
   * the include, so the argument would mean nothing there. They stay in the operation's input
   * (zod-validated, 422 naming the key, documented as query parameters in /api/doc); over GraphQL
   * they are absent. Each must be optional.
   */
  queryOnly?: readonly string[];
}

/** Extension key of a GraphQL field carrying its REST-only query keys (graphql/cost.ts reads it). */
export const REST_QUERY_EXTENSION = 'restQuery';

/** The input key a path parameter of this route fills. */
export function restPathArg(rest: Pick<RestRoute, 'pathArgs'>, name: string): string {
  return rest.pathArgs?.[name] ?? name;
}

/** Who may call: a permission (all of a list), any signed-in caller, or anyone. */
export type Access =
  | { permission: string | readonly string[]; customerSession?: true }
  | { anyPermission: readonly string[]; customerSession?: true }
  | 'authenticated'
  | 'public'
  /** Anyone, but the URL must carry a valid signature (the handler checks it: 403 otherwise). */
  | 'signedUrl';

/**
 * `customerSession: true` on a permission rule: the permission, held by a signed-in customer's
 * session. An API key (even `*:*`) or a staff account is not a customer (the /me routes).
 */
export const CUSTOMER_SESSION_ONLY = {
  apiKey: 'An API key is not a customer session: /me answers for a signed-in customer only',
  noCustomer: 'This account has no customer profile: /me is for customers',
};

/** How an operation's audit entry is written; every field has a default (see the header). */
export interface AuditSpec<Input, Result> {
  /** Dotted event name, e.g. `orders.statusChange`; a function when it depends on the outcome. */
  event?: string | ((input: Input, result: Result) => string);
  /** e.g. `order`, `catalog_entity`, `settings`. */
  entityType?: string;
  entityId?: (input: Input, result: Result) => string | null | undefined;
  /** The state before the write, read inside the operation's transaction before the handler. */
  before?: (ctx: RequestContext, input: Input) => Promise<unknown> | unknown;
  /** The state after the write; default the returned object. `false` records none. */
  after?: false | ((result: Result, input: Input) => unknown);
}

export interface OperationSpec<Shape extends Record<string, AnyZod>, Result> {
  /** GraphQL field name: noun for queries, noun then verb for mutations (settingsUpdate). */
  name: string;
  kind: 'query' | 'mutation';
  summary: string;
  description?: string;
  /** OpenAPI tag; defaults to the first path segment. */
  tag?: string;
  rest?: RestRoute;
  access: Access;
  input: Shape;
  /** Cross-field rules over the parsed input. */
  refine?: (input: z.infer<z.ZodObject<Shape>>) => FieldIssue[];
  /** Pothos output type param, e.g. 'JSONObject', SettingRef, [SettingRef]. */
  output: unknown;
  /**
   * Output may be null (a GraphQL nullable field). Default: nullable when the access rule can
   * refuse the caller (anything but 'public'), so a refused field is null with its error while
   * the other root fields of the same request keep their data (GraphQL practice: a non-null
   * field that fails nulls its parent, here the whole `data`).
   */
  nullable?: boolean;
  /** The output is a `{ data, meta }` page: REST returns it as-is instead of wrapping in `{ data }`. */
  paginated?: boolean;
  /**
   * The size of the list (or page) this returns, for the operation's cost (graphql/cost.ts);
   * taken from the input's `limit` when it is a pageInput, so only other `limit`s declare it.
   */
  listSize?: ListSize;
  resolve: (ctx: RequestContext, input: z.infer<z.ZodObject<Shape>>) => Promise<Result> | Result;
  /**
   * The operation answers whether a guessed value exists (a promotion code): one call per
   * request, and calls spend the caller's `guess` budget (http/rate-limit.ts `guess`).
   */
  guessable?: boolean;
  /**
   * Audit entry of this operation (see the header). Mutations that need a permission are audited
   * by default; `{...}` refines the entry or opts another mutation in; `false` opts out.
   * Declare it after `resolve`: TypeScript then infers the result type its callbacks receive.
   */
  audit?: AuditSpec<z.infer<z.ZodObject<Shape>>, NoInfer<Result>> | false;
}

export interface RegisteredOperation {
  name: string;
  kind: 'query' | 'mutation';
  summary: string;
  description?: string;
  tag: string;
  rest?: RestRoute;
  access: Access;
  input: z.ZodObject<Record<string, AnyZod>>;
  paginated: boolean;
  /**
   * The answer itself may be null (declared `nullable: true`). Root fields that are nullable only
   * because access can be refused are not: over REST a refusal is an error status, never `data: null`.
   */
  resultNullable: boolean;
  /** The audit event name when audited with a fixed name, `true` when it varies, null when not audited. */
  audit: string | true | null;
}

/** Every declared operation, in declaration order: sofa routes and OpenAPI are built from it. */
export const operations = new Map<string, RegisteredOperation>();

function authScopesFor(access: Access): Record<string, unknown> | undefined {
  if (access === 'public' || access === 'signedUrl') return undefined;
  if (access === 'authenticated') return { authenticated: true };
  if ('anyPermission' in access) return { anyPermission: [...access.anyPermission] };
  const list = typeof access.permission === 'string' ? [access.permission] : [...access.permission];
  return list.length === 1 ? { permission: list[0] } : { allPermissions: list };
}

/**
 * The 401/403 an access rule gives this actor, or null when allowed. The REST facade checks it
 * before sofa parses path, query and body values, so a bad body from a caller without the
 * permission is 401/403, not 422 (GraphQL gets the same answers from scope-auth).
 */
export function accessRefusal(access: Access, actor: { permissions: readonly string[]; kind?: 'user' | 'apiKey'; customerId?: string } | null): AppError | null {
  if (access === 'public' || access === 'signedUrl') return null;
  if (!actor) return new AppError('UNAUTHORIZED', 'Authentication required: send a session cookie, a bearer token or an x-api-key header');
  if (access === 'authenticated') return null;
  let missing: string[];
  if ('anyPermission' in access) {
    missing = hasAnyPermission(actor.permissions, access.anyPermission) ? [] : [access.anyPermission.join(' or ')];
  } else {
    const list = typeof access.permission === 'string' ? [access.permission] : access.permission;
    missing = list.filter((permission) => !hasPermission(actor.permissions, permission));
  }
  if (missing.length) return forbidden(`Insufficient permissions: missing permission ${missing.join(' and ')}`);
  if (access.customerSession) {
    if (actor.kind === 'apiKey') return forbidden(CUSTOMER_SESSION_ONLY.apiKey);
    if (!actor.customerId) return forbidden(CUSTOMER_SESSION_ONLY.noCustomer);
  }
  return null;
}

/** The access rule in words, for GraphQL descriptions and the OpenAPI document. */
export function accessNote(access: Access): string {
  if (access === 'public') return 'Public.';
  if (access === 'signedUrl') return 'Public, through a signed URL only.';
  if (typeof access === 'object' && access.customerSession)
    return `${accessNote({ ...access, customerSession: undefined } as Access)} A signed-in customer's session only (not an API key).`;
  if (access === 'authenticated') return 'Requires any valid credential.';
  if ('anyPermission' in access) return `Requires one of the permissions ${access.anyPermission.join(', ')}.`;
  const list = typeof access.permission === 'string' ? [access.permission] : access.permission;
  return `Requires permission ${list.join(' and ')}.`;
}

export function zodIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join('.') || '(input)', message: issue.message }));
}

/** Parses raw arguments with the operation's zod schema; 422 with every failing field. */
export function parseInput<S extends z.ZodObject<Record<string, AnyZod>>>(schema: S, args: Record<string, unknown>, refine?: (input: z.infer<S>) => FieldIssue[]): z.infer<S> {
  const result = schema.safeParse(normalizeArgs(schema.shape, args));
  if (!result.success) throw validationFailed(zodIssues(result.error));
  const issues = refine?.(result.data) ?? [];
  if (issues.length) throw validationFailed(issues);
  return result.data;
}

// ── audit defaults ──

const SCALAR_OUTPUTS = new Set(['String', 'Int', 'Float', 'Boolean', 'ID', 'UUID', 'DateTime', 'MinorUnits', 'JSON', 'JSONObject']);

/** The module an operation belongs to: that of the permission it needs, else its tag. */
function moduleOf(access: Access, tag: string): string {
  if (access === 'public' || access === 'authenticated' || access === 'signedUrl') return tag;
  const list = 'anyPermission' in access ? access.anyPermission : typeof access.permission === 'string' ? [access.permission] : access.permission;
  const module = list[0]?.split(':')[0];
  return module && module !== '*' ? module : tag;
}

/** `catalogEntityCreate` in module catalog → `catalog.entityCreate`; `orderStatusUpdate` in orders → `orders.statusUpdate`. */
export function defaultAuditEvent(name: string, module: string): string {
  const [first = name] = name.split(/(?=[A-Z])/);
  const word = first.toLowerCase();
  const m = module.toLowerCase();
  const action = word.length < name.length && (m.startsWith(word) || word.startsWith(m)) ? name.slice(first.length) : name;
  return `${module}.${action.charAt(0).toLowerCase()}${action.slice(1)}`;
}

function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** The GraphQL type name of an operation's output when it is an object type. */
function outputTypeName(output: unknown): string | null {
  const single = Array.isArray(output) ? null : output;
  if (typeof single === 'string') return SCALAR_OUTPUTS.has(single) ? null : single;
  const name = (single as { name?: unknown } | null)?.name;
  return typeof name === 'string' && !SCALAR_OUTPUTS.has(name) ? name : null;
}

function idOf(value: unknown): string | null {
  const id = value && typeof value === 'object' && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : null;
}

/** Whether an operation is audited, and how, with every default filled in. */
function auditPlan<Shape extends Record<string, AnyZod>, Result>(spec: OperationSpec<Shape, Result>, tag: string) {
  type Input = z.infer<z.ZodObject<Shape>>;
  const privileged = spec.kind === 'mutation' && spec.access !== 'public' && spec.access !== 'authenticated' && spec.access !== 'signedUrl';
  if (spec.audit === false || (!spec.audit && !privileged)) return null;
  const declared: AuditSpec<Input, Result> = spec.audit ?? {};
  const module = moduleOf(spec.access, tag);
  const typeName = outputTypeName(spec.output);
  const pathName = spec.rest?.path.match(/:([A-Za-z0-9_]+)/)?.[1];
  const pathParam = pathName && spec.rest ? restPathArg(spec.rest, pathName) : undefined;
  const event = declared.event ?? defaultAuditEvent(spec.name, module);
  return {
    label: typeof event === 'string' ? event : (true as const),
    before: declared.before,
    entry(input: Input, result: Result, before: unknown) {
      const resultId = idOf(result);
      const inputId = (input as Record<string, unknown>)[pathParam ?? 'id'];
      // The returned object when it is one (its type and id), else the module and the id the
      // caller named; a declared entityType pairs with the returned id when there is one.
      const entity = resultId && typeName ? { type: snakeCase(typeName), id: resultId } : { type: module, id: typeof inputId === 'string' ? inputId : null };
      const entityType = declared.entityType ?? entity.type;
      const entityId = declared.entityId ? (declared.entityId(input, result) ?? null) : declared.entityType ? (resultId ?? entity.id) : entity.id;
      const isObject = result !== null && typeof result === 'object' && !Array.isArray(result);
      const after = declared.after === false ? undefined : declared.after ? declared.after(result, input) : isObject ? result : undefined;
      return { event: typeof event === 'string' ? event : event(input, result), entityType, entityId, before, after };
    },
  };
}

export function defineOperation<Shape extends Record<string, AnyZod>, Result>(spec: OperationSpec<Shape, Result>): void {
  if (operations.has(spec.name)) throw new Error(`operation ${spec.name} is declared twice`);
  if (spec.rest) {
    // Two operations on one method + path (parameter names aside) would shadow each other in the
    // facade; plugins hit this first, so the message names both.
    const route = (r: RestRoute) => `${r.method} ${r.path.replace(/:[A-Za-z0-9_]+/g, ':')}`;
    const key = route(spec.rest);
    const clash = [...operations.values()].find((op) => op.rest && route(op.rest) === key);
    if (clash) throw new Error(`route ${spec.rest.method} /api${spec.rest.path} of operation ${spec.name} is already declared by operation ${clash.name}`);
  }
  const schema = z.object(spec.input);
  const tag = spec.tag ?? spec.rest?.path.split('/')[1] ?? spec.name;
  const audit = auditPlan(spec, tag);
  operations.set(spec.name, {
    name: spec.name,
    kind: spec.kind,
    summary: spec.summary,
    description: spec.description,
    tag,
    rest: spec.rest,
    access: spec.access,
    input: schema as unknown as z.ZodObject<Record<string, AnyZod>>,
    paginated: spec.paginated ?? false,
    resultNullable: spec.nullable === true,
    audit: audit?.label ?? null,
  });

  const auditNote = audit ? (audit.label === true ? 'Audited.' : `Audited as ${audit.label}.`) : undefined;
  const description = [spec.summary, spec.description, accessNote(spec.access), auditNote, spec.rest ? `REST: ${spec.rest.method} /api${spec.rest.path}` : undefined]
    .filter(Boolean)
    .join('\n\n');

  type Input = z.infer<z.ZodObject<Shape>>;
  // An audited operation runs in one transaction with its audit entry; its handler sees that
  // transaction as ctx.db (and a fresh loader cache, so no loader outlives the transaction).
  const run = !audit
    ? (ctx: RequestContext, input: Input) => spec.resolve(ctx, input)
    : (ctx: RequestContext, input: Input) =>
        withTransaction(ctx, async (tx) => {
          const txCtx: RequestContext = { ...inTransaction(ctx, tx), loaders: new Map() };
          const before = audit.before ? await audit.before(txCtx, input) : undefined;
          const result = await spec.resolve(txCtx, input);
          // The audit module's writer, through the core's services registry (src/services.ts).
          await ctx.services.audit.record(tx, ctx, audit.entry(input, result, before));
          return result;
        });

  // Pothos' generic field typing cannot follow a schema assembled at run time from zod, so the
  // registration goes through a deliberately loose view of the field builder.
  const loose = builder as unknown as LooseBuilder;
  const register = spec.kind === 'query' ? loose.queryField.bind(loose) : loose.mutationField.bind(loose);
  const size = spec.listSize ?? declaredPageArgument((spec.input as Record<string, AnyZod>).limit);
  // Argument types now, not in Pothos' lazy field callback: an enum argument may declare its
  // own GraphQL enum, which must exist before the schema is built.
  const queryOnly = new Set(spec.rest?.queryOnly ?? []);
  for (const key of queryOnly) {
    const value = (spec.input as Record<string, AnyZod>)[key];
    if (!value || !(value as unknown as { safeParse: (v: unknown) => { success: boolean } }).safeParse(undefined).success) {
      throw new Error(`operation ${spec.name}: REST-only query key ${key} must be an optional input`);
    }
  }
  const argTypes = Object.entries(spec.input)
    .filter(([key]) => !queryOnly.has(key))
    .map(([key, value]) => [key, graphqlArgType(value, argumentHint(spec.name, key))] as const);
  register(spec.name, (t) =>
    t.field({
      type: spec.output,
      extensions: size || queryOnly.size ? { ...(size ? { listSize: size } : {}), ...(queryOnly.size ? { [REST_QUERY_EXTENSION]: [...queryOnly] } : {}) } : undefined,
      nullable: spec.nullable ?? spec.access !== 'public',
      description,
      authScopes: authScopesFor(spec.access),
      args: Object.fromEntries(argTypes.map(([key, arg]) => [key, t.arg({ type: arg.type, required: arg.required, description: arg.description })])),
      // scope-auth has already run when this executes: authentication and permission come before
      // input validation, so an anonymous caller with a bad body gets 401, not 422.
      resolve: async (_root: unknown, args: Record<string, unknown>, ctx: RequestContext) => {
        // scope-auth checks the permission only: a customer-session rule refuses an API key (or a
        // user without a customer profile) here, before input validation, as the REST facade does.
        if (typeof spec.access === 'object' && spec.access.customerSession) {
          const refusal = accessRefusal(spec.access, ctx.actor);
          if (refusal) throw refusal;
        }
        if (spec.guessable) await ctx.rateLimit?.guess();
        // Over REST the facade put the query-only values on the request (ctx.rest.queryArgs).
        const restArgs = queryOnly.size && ctx.rest?.facade ? ctx.rest.queryArgs : undefined;
        return run(ctx, parseInput(schema, restArgs ? { ...args, ...restArgs } : args, spec.refine));
      },
    }),
  );
}

interface LooseBuilder {
  queryField(name: string, field: (t: LooseFieldBuilder) => unknown): void;
  mutationField(name: string, field: (t: LooseFieldBuilder) => unknown): void;
}

interface LooseFieldBuilder {
  field(options: Record<string, unknown>): unknown;
  arg(options: Record<string, unknown>): unknown;
}
