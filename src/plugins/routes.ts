// The spec's route vocabulary for plugins, as a thin layer over the core route builder
// (graphql/operation.ts): a tag and a prefix, then per route a method and path, `summary`,
// `.auth()`, `.permission(scope)`, `.input(shape)` and a handler receiving input, actor,
// services, db and params. Every route it declares is an ordinary operation: a GraphQL field
// (query for GET, mutation otherwise), a REST route under /api and an OpenAPI entry, with
// scope-auth, validation and audit exactly as the core's.
//
//   const r = ctx.routes({ tag: 'loyalty', prefix: '/loyalty' });
//   r.get('/stamps').summary('Stamps of a customer').permission('loyalty:read')
//     .input({ email: z.email() })
//     .handler(({ input, db, organizationId }) => ...);
//
// Typed outputs: `.output(ref)` (one object) or `.outputList(ref)` (a list) with an object type
// the plugin declares (src/plugins/types.ts `pluginObject`, or ctx.builder); a `.paginated()`
// route with an output answers `<Name>List` (`data` and `meta`). The GraphQL field is then that
// type (nested selections, batched relations), REST answers the same shape through sofa and
// /api/doc documents it. A route without an output answers `JSON`, as before.
//
// Typed inputs: a list of objects in `.input()` declares its items with `pluginInput(name,
// description, zodObject)` (src/plugins/types.ts): GraphQL gets an input object, not JSONObject.
import { z } from 'zod';
import type { Config } from '../config/index.js';
import type { RequestContext } from '../context.js';
import type { Actor } from '../auth/actor.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services.js';
import type { DbClient } from '../db/transaction.js';
import { builder } from '../graphql/builder.js';
import { defineOperation, type Access, type AuditSpec } from '../graphql/operation.js';
import { pluginListOf } from './types.js';

type AnyZod = z.core.$ZodType;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a plugin's `routes` function receives when the plugin is activated. */
export interface PluginRouteContext {
  pluginId: string;
  config: Config;
  logger: Logger;
  /**
   * The spec's vocabulary: a tag and a prefix. `params` types path parameters by name (e.g.
   * `{ id: z.uuid() }`: a malformed id is 422 before the handler, never a database error);
   * a route with an untyped `:param` fails at boot.
   */
  routes(options: RouteGroupOptions): RouteGroup;
  /** The core route builder, for operations with typed GraphQL outputs (path parameters checked as above). */
  defineOperation: typeof defineOperation;
  /** The Pothos builder, for the plugin's own object types. */
  builder: typeof builder;
}

export interface RouteHandlerArgs<Input> {
  input: Input;
  /** The caller; null only on public routes. */
  actor: Actor | null;
  services: Services;
  /** The operation's transaction when it is audited (every permission-checked write), else the client. */
  db: DbClient;
  /** Path parameters (`:id` → params.id). */
  params: Record<string, string>;
  organizationId: string;
  /** The whole request context, for what the short list leaves out (logger, config, request). */
  ctx: RequestContext;
}

export interface RouteGroup {
  get(path: string): RouteDeclaration;
  post(path: string): RouteDeclaration;
  put(path: string): RouteDeclaration;
  patch(path: string): RouteDeclaration;
  delete(path: string): RouteDeclaration;
}

export interface RouteDeclaration<Shape extends Record<string, AnyZod> = Record<string, never>> {
  summary(text: string): RouteDeclaration<Shape>;
  description(text: string): RouteDeclaration<Shape>;
  /** Any valid credential. */
  auth(): RouteDeclaration<Shape>;
  /** A permission (implies auth); call again to require several. */
  permission(scope: string): RouteDeclaration<Shape>;
  /** Any one of these permissions (the handler narrows by who the caller is: admin, vendor, customer). */
  anyPermission(scopes: readonly string[]): RouteDeclaration<Shape>;
  /** Body (or, for GET, query) fields, validated before the handler; 422 with every failing field. */
  input<S extends Record<string, AnyZod>>(shape: S): RouteDeclaration<S>;
  /** GraphQL field name; default from the tag, method and path (GET /loyalty/stamps → loyaltyStamps). */
  name(name: string): RouteDeclaration<Shape>;
  /** Success status; default 201 for POST routes without a path parameter, 200 otherwise. */
  status(status: 200 | 201 | 202): RouteDeclaration<Shape>;
  audit(spec: AuditSpec<z.infer<z.ZodObject<Shape>>, unknown> | false): RouteDeclaration<Shape>;
  /** The handler returns a `{ data, meta }` page: REST sends it as-is instead of wrapping it in `{ data }`. */
  paginated(): RouteDeclaration<Shape>;
  /**
   * The GraphQL type the handler's answer has: an object ref (pluginObject, ctx.builder.objectRef,
   * a core type). With `.paginated()` it is the type of the page's items.
   */
  output(ref: object): RouteDeclaration<Shape>;
  /** The answer is a list of `ref`. */
  outputList(ref: object): RouteDeclaration<Shape>;
  handler(fn: (args: RouteHandlerArgs<z.infer<z.ZodObject<Shape>>>) => unknown): void;
}

function words(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

function camel(parts: string[]): string {
  return parts.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

/** GET /loyalty/stamps → loyaltyStamps; POST /layaways/:id/payments → layawaysPaymentsCreate. */
export function defaultOperationName(method: Method, fullPath: string): string {
  const segments = fullPath.split('/').filter((s) => s && !s.startsWith(':'));
  const base = camel(segments.flatMap(words));
  const verb = { GET: '', POST: 'Create', PUT: 'Set', PATCH: 'Update', DELETE: 'Delete' }[method];
  return base + verb;
}

export interface RouteGroupOptions {
  tag: string;
  prefix: string;
  /** Schemas of path parameters by name; every `:param` of the group's routes needs one. */
  params?: Record<string, AnyZod>;
}

// Values no plugin path parameter may accept (issue 32: each reached a handler and came back as
// a 500). A declared type must refuse them all, so `z.string()` is no type: z.uuid(), an enum or
// a bounded pattern is.
const MALFORMED = ["1' OR '1'='1", 'x'.repeat(3000), '\u0000', '../../etc/passwd', '%00'];

/**
 * Boot check of a plugin route's path parameters: each `:param` has a declared type that refuses
 * malformed ids, so a plugin cannot forget one (the REST facade then answers a malformed id 422
 * naming the parameter, before the handler). Throws naming the route; activation adds the plugin.
 */
export function checkPathParams(method: Method, path: string, shape: Record<string, AnyZod>): void {
  for (const [, name] of path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    const route = `route ${method} /api${path}`;
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const schema = shape[name!];
    if (!schema) throw new Error(`${route}: path parameter :${name} has no declared type (declare it, e.g. params: { ${name}: z.uuid() })`);
    const accepted = MALFORMED.find((value) => z.safeParse(schema, value).success);
    if (accepted !== undefined)
      throw new Error(
        `${route}: path parameter :${name} accepts ${JSON.stringify(accepted.slice(0, 40))}: declare a type that refuses malformed values (z.uuid(), an enum, a bounded pattern)`,
      );
  }
}

/** ctx.defineOperation for plugins: the core route builder, after the same path-parameter check. */
export const pluginDefineOperation: typeof defineOperation = (spec) => {
  if (spec.rest) checkPathParams(spec.rest.method, spec.rest.path, spec.input);
  defineOperation(spec);
};

export function createRouteGroup(options: RouteGroupOptions, define: typeof defineOperation = defineOperation): RouteGroup {
  const prefix = options.prefix === '/' ? '' : options.prefix.replace(/\/$/, '');
  const declare = (method: Method, path: string): RouteDeclaration => {
    const fullPath = `${prefix}${path === '/' ? '' : path}` || '/';
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const pathParams = [...fullPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
    const state: {
      summary?: string;
      description?: string;
      auth: boolean;
      permissions: string[];
      anyPermission?: readonly string[];
      input: Record<string, AnyZod>;
      name?: string;
      status?: 200 | 201 | 202;
      audit?: AuditSpec<never, unknown> | false;
      paginated?: boolean;
      output?: { ref: object; list: boolean };
    } = { auth: false, permissions: [], input: {} };
    const decl: RouteDeclaration<Record<string, AnyZod>> = {
      summary: (text) => ((state.summary = text), decl),
      description: (text) => ((state.description = text), decl),
      auth: () => ((state.auth = true), decl),
      permission: (scope) => (state.permissions.push(scope), decl),
      anyPermission: (scopes) => ((state.anyPermission = scopes), decl),
      input: (shape) => ((state.input = shape), decl) as never,
      name: (name) => ((state.name = name), decl),
      status: (status) => ((state.status = status), decl),
      audit: (spec) => ((state.audit = spec as never), decl),
      paginated: () => ((state.paginated = true), decl),
      output: (ref) => ((state.output = { ref, list: false }), decl),
      outputList: (ref) => ((state.output = { ref, list: true }), decl),
      handler(fn) {
        const access: Access = state.anyPermission
          ? { anyPermission: state.anyPermission }
          : state.permissions.length
            ? // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
              { permission: state.permissions.length === 1 ? state.permissions[0]! : state.permissions }
            : state.auth
              ? 'authenticated'
              : 'public';
        // Path parameters are input keys the facade fills from the path (see RestRoute.path).
        const typed = Object.fromEntries(pathParams.flatMap((p) => (options.params?.[p] ? [[p, options.params[p]]] : [])));
        const shape: Record<string, AnyZod> = { ...typed, ...state.input };
        checkPathParams(method, fullPath, shape);
        if (state.output?.list && state.paginated) throw new Error(`route ${method} /api${fullPath}: a paginated route takes .output(item), not .outputList`);
        const output = !state.output ? 'JSON' : state.paginated ? pluginListOf(state.output.ref) : state.output.list ? [state.output.ref] : state.output.ref;
        define({
          name: state.name ?? defaultOperationName(method, fullPath),
          kind: method === 'GET' ? 'query' : 'mutation',
          summary: state.summary ?? `${method} /api${fullPath}`,
          description: state.description,
          tag: options.tag,
          rest: { method, path: fullPath, status: state.status ?? (method === 'POST' && !pathParams.length ? 201 : 200) },
          access,
          input: shape,
          output,
          nullable: true,
          paginated: state.paginated ?? false,
          resolve: async (ctx, input) => {
            const record = input as Record<string, unknown>;
            const params = Object.fromEntries(pathParams.map((p) => [p, String(record[p])]));
            const result = await fn({ input: input as never, actor: ctx.actor, services: ctx.services, db: ctx.db, params, organizationId: ctx.organization.id, ctx });
            return result ?? null;
          },
          ...(state.audit !== undefined ? { audit: state.audit as never } : {}),
        });
      },
    };
    return decl as unknown as RouteDeclaration;
  };
  return {
    get: (path) => declare('GET', path),
    post: (path) => declare('POST', path),
    put: (path) => declare('PUT', path),
    patch: (path) => declare('PATCH', path),
    delete: (path) => declare('DELETE', path),
  };
}
