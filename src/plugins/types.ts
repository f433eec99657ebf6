// Typed GraphQL outputs for plugin routes. A plugin declares its objects with `pluginObject`
// (a short field table over the Pothos builder) and hands them to its routes with
// `.output(ref)` / `.outputList(ref)`; a `.paginated()` route then answers `<Name>List`, the
// plugins' `{ data, meta: { total, limit, offset } }` page. The field table is what the handlers
// already return (the same plain objects), so a REST body keeps its shape: sofa selects every
// field of the type, and relations only the graph resolves are left out with `graphOnly`.
//
//   const VendorRef = pluginObject<VendorView>('MarketplaceVendor', 'A vendor', {
//     id: 'UUID', name: 'String', description: 'String?', status: VendorStatusEnum,
//     approvedAt: 'DateTime?', balance: { type: 'MinorUnits', description: 'minor units' },
//   });
//   r.get('/vendors/:id').output(VendorRef)...
//
// Typed GraphQL inputs: `pluginInput(name, description, zodObject)` declares an input object
// from the zod object a route already validates with, for list items and nested objects that
// would otherwise be `JSONObject` (see pluginInput).
import type { z } from 'zod';
import { builder } from '../graphql/builder.js';
import { withGraphqlInput } from '../graphql/zod-args.js';

/** Scalars by name; `?` makes the field nullable, `[…]` a list of non-null items. */
export type ScalarCode =
  | 'UUID'
  | 'String'
  | 'Int'
  | 'Float'
  | 'Boolean'
  | 'DateTime'
  | 'MinorUnits'
  | 'JSONObject'
  | 'UUID?'
  | 'String?'
  | 'Int?'
  | 'Float?'
  | 'Boolean?'
  | 'DateTime?'
  | 'MinorUnits?'
  | 'JSONObject?'
  | '[String]'
  | '[UUID]';

export interface FieldOptions<T> {
  /** A scalar name, an enum or object ref (from defineEnum, pluginObject or a core type). */
  type: ScalarCode | object;
  nullable?: boolean;
  list?: boolean;
  description?: string;
  /** Default: the parent's property of the same name (null when absent and nullable). */
  resolve?: (parent: T, args: Record<string, unknown>, ctx: never) => unknown;
  args?: Record<string, unknown>;
}

export type FieldSpec<T> = ScalarCode | object | FieldOptions<T>;

interface LooseFieldBuilder {
  field(options: Record<string, unknown>): unknown;
}

/** A field table entry with options, as opposed to a bare type (Pothos refs carry a `kind`). */
function isOptions<T>(spec: FieldSpec<T>): spec is FieldOptions<T> {
  return typeof spec === 'object' && spec !== null && 'type' in spec && !('kind' in spec);
}

function parseCode(code: string): { type: string; nullable: boolean; list: boolean } {
  const list = code.startsWith('[');
  const nullable = code.endsWith('?');
  return { type: code.replace(/[[\]?]/g, ''), nullable, list };
}

function fieldConfig<T>(key: string, spec: FieldSpec<T>): Record<string, unknown> {
  const options: FieldOptions<T> = isOptions(spec) ? spec : { type: spec as ScalarCode | object };
  const parsed = typeof options.type === 'string' ? parseCode(options.type) : { type: options.type, nullable: false, list: false };
  const nullable = options.nullable ?? parsed.nullable;
  const list = options.list ?? parsed.list;
  const read = (parent: T) => {
    const value = (parent as Record<string, unknown>)[key];
    return value === undefined && nullable ? null : value;
  };
  return {
    type: list ? [parsed.type] : parsed.type,
    nullable,
    description: options.description,
    ...(options.args ? { args: options.args } : {}),
    resolve: options.resolve ?? read,
  };
}

const objects = new Map<string, unknown>();

/**
 * An object type from a field table (see the header). Declared once per name: a plugin's routes
 * run once per process, but a second declaration under the same name (another plugin) fails.
 */
export function pluginObject<T>(name: string, description: string, fields: Record<string, FieldSpec<T>> | (() => Record<string, FieldSpec<T>>)) {
  if (objects.has(name)) throw new Error(`GraphQL type ${name} is declared twice`);
  const ref = builder.objectRef<T>(name).implement({
    description,
    fields: (t) => {
      const table = typeof fields === 'function' ? fields() : fields;
      const loose = t as unknown as LooseFieldBuilder;
      return Object.fromEntries(Object.entries(table).map(([key, spec]) => [key, loose.field(fieldConfig(key, spec))])) as never;
    },
  });
  objects.set(name, ref);
  return ref;
}

/**
 * A GraphQL input object for a nested plugin argument (the items of `lines`, an installment):
 * `lines: z.array(pluginInput('LayawayLineInput', 'A line to reserve', z.object({ ... }).strict()))`.
 * The zod object stays the validation and the OpenAPI schema; GraphQL gets `LayawayLineInput`
 * with the same fields and scalar types (UUID, Int, MinorUnits for `money()`, DateTime), where
 * it had `JSONObject`. Its fields are all optional in GraphQL, whatever zod requires (the core's
 * optional-fields pattern of AddressInput, graphql/zod-args.ts withGraphqlInput): GraphQL
 * coercion would refuse a missing field without naming it, where zod answers 422 naming the
 * path (`lines.0.quantity`) over REST and GraphQL alike. A value of the wrong type is refused
 * by GraphQL coercion; the REST facade names its path too (http/rest-errors.ts).
 *
 * Call it inside the plugin's `routes` (as pluginObject): only an enabled plugin adds types.
 * Make the object `.strict()`: GraphQL refuses unknown fields, so /api/doc says so as well.
 */
export function pluginInput<S extends z.ZodObject>(name: string, description: string, schema: S): S {
  if (objects.has(name)) throw new Error(`GraphQL type ${name} is declared twice`);
  const described = schema.describe(description) as S;
  withGraphqlInput(described, name);
  objects.set(name, described);
  return described;
}

/** The meta of a plugin list: total rows and the window asked for. */
export interface ListMeta {
  total: number;
  limit: number;
  offset: number;
}

let listMetaRef: object | undefined;
function listMeta(): object {
  listMetaRef ??= builder.objectRef<ListMeta>('PluginListMeta').implement({
    description: 'Position of a plugin list page: offset pagination (limit capped at 100).',
    fields: (t) => ({
      total: t.exposeInt('total', { description: 'Rows in the whole list' }),
      limit: t.exposeInt('limit', { description: 'Page size applied' }),
      offset: t.exposeInt('offset', { description: 'Rows skipped before this page' }),
    }),
  });
  return listMetaRef;
}

const lists = new Map<unknown, unknown>();

/** `<Item>List { data: [Item!]!, meta: PluginListMeta! }`, once per item type. */
export function pluginListOf(item: object): unknown {
  const existing = lists.get(item);
  if (existing) return existing;
  const name = (item as { name?: unknown }).name;
  if (typeof name !== 'string') throw new Error('pluginListOf: the item type has no name');
  const ref = builder.objectRef<{ data: unknown[]; meta: ListMeta }>(`${name}List`).implement({
    description: `A page of ${name}: \`data\` and \`meta\` (total, limit, offset).`,
    fields: (t) => ({
      data: t.field({ type: [item as never], resolve: (page) => page.data as never }),
      meta: t.field({ type: listMeta() as never, resolve: (page) => page.meta as never }),
    }),
  });
  lists.set(item, ref);
  return ref;
}
