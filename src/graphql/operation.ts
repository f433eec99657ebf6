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
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { AppError, forbidden, validationFailed, type FieldIssue } from '../errors.js';
import { hasAnyPermission, hasPermission } from '../auth/permissions.js';
import { builder } from './builder.js';
import { graphqlArgType, normalizeArgs } from './zod-args.js';

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
}

/** Who may call: a permission (all of a list), any signed-in caller, or anyone. */
export type Access =
  | { permission: string | readonly string[] }
  | { anyPermission: readonly string[] }
  | 'authenticated'
  | 'public';

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
  /** Output may be null (a GraphQL nullable field). */
  nullable?: boolean;
  /** The output is a `{ data, meta }` page: REST returns it as-is instead of wrapping in `{ data }`. */
  paginated?: boolean;
  resolve: (ctx: RequestContext, input: z.infer<z.ZodObject<Shape>>) => Promise<Result> | Result;
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
}

/** Every declared operation, in declaration order: sofa routes and OpenAPI are built from it. */
export const operations = new Map<string, RegisteredOperation>();

function authScopesFor(access: Access): Record<string, unknown> | undefined {
  if (access === 'public') return undefined;
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
export function accessRefusal(access: Access, actor: { permissions: readonly string[] } | null): AppError | null {
  if (access === 'public') return null;
  if (!actor) return new AppError('UNAUTHORIZED', 'Authentication required: send a session cookie, a bearer token or an x-api-key header');
  if (access === 'authenticated') return null;
  if ('anyPermission' in access) {
    return hasAnyPermission(actor.permissions, access.anyPermission) ? null : forbidden(`Insufficient permissions: missing permission ${access.anyPermission.join(' or ')}`);
  }
  const list = typeof access.permission === 'string' ? [access.permission] : access.permission;
  const missing = list.filter((permission) => !hasPermission(actor.permissions, permission));
  return missing.length ? forbidden(`Insufficient permissions: missing permission ${missing.join(' and ')}`) : null;
}

/** The access rule in words, for GraphQL descriptions and the OpenAPI document. */
export function accessNote(access: Access): string {
  if (access === 'public') return 'Public.';
  if (access === 'authenticated') return 'Requires any valid credential.';
  if ('anyPermission' in access) return `Requires one of the permissions ${access.anyPermission.join(', ')}.`;
  const list = typeof access.permission === 'string' ? [access.permission] : access.permission;
  return `Requires permission ${list.join(' and ')}.`;
}

export function zodIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join('.') || '(input)', message: issue.message }));
}

/** Parses raw arguments with the operation's zod schema; 422 with every failing field. */
export function parseInput<S extends z.ZodObject<Record<string, AnyZod>>>(
  schema: S,
  args: Record<string, unknown>,
  refine?: (input: z.infer<S>) => FieldIssue[],
): z.infer<S> {
  const result = schema.safeParse(normalizeArgs(schema.shape, args));
  if (!result.success) throw validationFailed(zodIssues(result.error));
  const issues = refine?.(result.data) ?? [];
  if (issues.length) throw validationFailed(issues);
  return result.data;
}

export function defineOperation<Shape extends Record<string, AnyZod>, Result>(spec: OperationSpec<Shape, Result>): void {
  if (operations.has(spec.name)) throw new Error(`operation ${spec.name} is declared twice`);
  const schema = z.object(spec.input);
  const tag = spec.tag ?? spec.rest?.path.split('/')[1] ?? spec.name;
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
  });

  const description = [spec.summary, spec.description, accessNote(spec.access), spec.rest ? `REST: ${spec.rest.method} /api${spec.rest.path}` : undefined]
    .filter(Boolean)
    .join('\n\n');

  // Pothos' generic field typing cannot follow a schema assembled at run time from zod, so the
  // registration goes through a deliberately loose view of the field builder.
  const loose = builder as unknown as LooseBuilder;
  const register = spec.kind === 'query' ? loose.queryField.bind(loose) : loose.mutationField.bind(loose);
  register(spec.name, (t) =>
    t.field({
      type: spec.output,
      nullable: spec.nullable ?? false,
      description,
      authScopes: authScopesFor(spec.access),
      args: Object.fromEntries(
        Object.entries(spec.input).map(([key, value]) => {
          const arg = graphqlArgType(value);
          return [key, t.arg({ type: arg.type, required: arg.required, description: arg.description })];
        }),
      ),
      // scope-auth has already run when this executes: authentication and permission come before
      // input validation, so an anonymous caller with a bad body gets 401, not 422.
      resolve: async (_root: unknown, args: Record<string, unknown>, ctx: RequestContext) =>
        spec.resolve(ctx, parseInput(schema, args, spec.refine)),
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
