// The cost of a GraphQL operation, computed from the document and the schema before anything
// executes (graphql/guards.ts refuses an operation over graphql.maxCost and charges the rest to
// the rate budget). Finding: a flat weight per field let `orders(limit:50) { customer {
// orders(limit:50) { ... } } }` pass as a handful of fields while it built 6 million objects.
//
// The model counts objects: every object a field can return costs 1, times the number of
// times the field runs, which is the product of the sizes of every list around it. A list's size
// is its page size as applied (`first`/`last`, else `limit`, else the declared default, and never
// more than the declared cap: capped means clamped), declared on the field with `listSize()`;
// the `data`/`edges` of a page take the size of the field that returned the page; a list that
// declares nothing counts UNDECLARED_LIST_SIZE (an estimate, not a bound: see README). Scalar
// fields cost nothing below the root (they come with their row); a root field costs at least 1.
//
// Back-edges (order → customer → orders, entity → variants → entity) are bounded too: the same
// list field may be entered at most twice along one path. Multiplication already prices a loop
// whose lists are declared, but an estimated list in a loop would compound its estimate error
// geometrically; one re-entry keeps legitimate "the customer's other orders" selections.
import {
  GraphQLList,
  GraphQLObjectType,
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** What a list field declares about its size (field `extensions.listSize`). */
export interface ListSize {
  /** Items when no size argument is given. */
  default: number;
  /** Larger sizes are clamped to this. */
  max: number;
}

/** Size of a list field that declares none (embedded relations without arguments). */
export const UNDECLARED_LIST_SIZE = 10;

/** How many times the same list field may be entered along one path (one re-entry). */
export const MAX_LIST_ENTRIES_PER_PATH = 2;

/** Field extensions declaring a list's (or a page's) size. */
export function listSize(defaultSize: number, max: number): { listSize: ListSize } {
  return { listSize: { default: defaultSize, max } };
}

/**
 * Field extensions of a catalog embed: over REST it resolves only when the route's `include`
 * query key (a REST-only input, operation.ts `queryOnly`) names it (null otherwise), so a REST route's full selection costs what its
 * `include` asks for; over GraphQL the selection is the include.
 */
export function embedField(name: string): { embed: string } {
  return { embed: name };
}

export interface OperationCost {
  cost: number;
  /** The list field entered more than MAX_LIST_ENTRIES_PER_PATH times along one path, if any. */
  loop?: string;
}

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  defaults: Map<string, unknown>;
  /** Executed by the REST facade (embeds follow `include`). */
  rest: boolean;
  /** REST-only query values of the route (ctx.rest.queryArgs). */
  restQuery?: Readonly<Record<string, unknown>>;
  loop?: string;
}

function operationOf(document: DocumentNode, operationName?: string | null): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
}

function argValue(field: FieldNode, name: string, walk: Walk): unknown {
  const node = field.arguments?.find((a) => a.name.value === name)?.value;
  if (!node) return undefined;
  if (node.kind !== Kind.VARIABLE) return valueFromASTUntyped(node, walk.variables);
  const variable = node.name.value;
  return variable in walk.variables ? walk.variables[variable] : walk.defaults.get(variable);
}

/**
 * Over REST, a root field whose `include` is a REST-only query key (operation.ts `queryOnly`,
 * field extension `restQuery`): the value the facade took from the query string ('' when absent,
 * so no embed resolves). Undefined elsewhere: over GraphQL the selection is the include.
 */
function restInclude(definition: GraphQLField<unknown, unknown>, walk: Walk): string | undefined {
  const keys = definition.extensions?.restQuery as readonly string[] | undefined;
  if (!walk.rest || !keys?.includes('include')) return undefined;
  const value = walk.restQuery?.include;
  return Array.isArray(value) ? value.join(',') : String(value ?? '');
}

/** An integer argument's value (literal or variable), or undefined when absent or not a positive integer. */
function intArg(field: FieldNode, name: string, walk: Walk): number | undefined {
  const value = argValue(field, name, walk);
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}

/** The size a field declares, as applied to these arguments; undefined when it declares none. */
function declaredSize(definition: GraphQLField<unknown, unknown>, field: FieldNode, walk: Walk): number | undefined {
  const declared = definition.extensions?.listSize as ListSize | undefined;
  if (!declared) return undefined;
  const asked = intArg(field, 'first', walk) ?? intArg(field, 'last', walk) ?? intArg(field, 'limit', walk);
  const argDefault = definition.args.find((a) => a.name === 'limit')?.defaultValue;
  return Math.min(asked ?? (typeof argDefault === 'number' ? argDefault : declared.default), declared.max);
}

function costOf(
  set: SelectionSetNode,
  type: GraphQLCompositeType,
  times: number,
  pageSize: number | undefined,
  path: readonly string[],
  walk: Walk,
  root: boolean,
  includes?: ReadonlySet<string>,
): number {
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT || selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.fragments.get(selection.name.value);
      if (!fragment) continue;
      // A spread of a fragment already on this path is a cycle, refused by validation.
      if (selection.kind === Kind.FRAGMENT_SPREAD && path.includes(`...${selection.name.value}`)) continue;
      const named = fragment.typeCondition ? walk.schema.getType(fragment.typeCondition.name.value) : type;
      const condition = named && isCompositeType(named) ? named : type;
      const inner = selection.kind === Kind.FRAGMENT_SPREAD ? [...path, `...${selection.name.value}`] : path;
      total += costOf(fragment.selectionSet, condition, times, pageSize, inner, walk, root, includes);
      continue;
    }
    const name = selection.name.value;
    if (name.startsWith('__')) {
      total += root ? 1 : 0;
      continue;
    }
    const definition = isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
    if (!definition) continue; // unknown fields are refused by validation
    const embed = definition.extensions?.embed as string | undefined;
    if (walk.rest && embed && includes && !includes.has(embed)) continue; // null over REST
    const nullable = getNullableType(definition.type);
    const named = getNamedType(definition.type);
    const isList = nullable instanceof GraphQLList;
    const size = declaredSize(definition, selection, walk);
    if (!selection.selectionSet || !isCompositeType(named)) {
      total += root ? 1 : 0;
      continue;
    }
    const coordinate = `${type.name}.${name}`;
    let objects = times;
    let innerPage: number | undefined;
    if (isList) {
      if (path.filter((p) => p === coordinate).length + 1 > MAX_LIST_ENTRIES_PER_PATH) walk.loop ??= coordinate;
      objects = times * (size ?? pageSize ?? UNDECLARED_LIST_SIZE);
    } else {
      innerPage = size; // a page object: its data/edges lists have this size
    }
    const include = definition.args.some((a) => a.name === 'include') ? String(argValue(selection, 'include', walk) ?? '') : restInclude(definition, walk);
    const innerIncludes = include === undefined ? includes : new Set(include.split(',').map((part) => part.trim()));
    total += objects + costOf(selection.selectionSet, named, objects, innerPage, isList ? [...path, coordinate] : path, walk, false, innerIncludes);
  }
  return total;
}

/** Arguments whose values the walk reads (declaredSize's first/last/limit, the include argument). */
const COST_ARGUMENTS = new Set(['first', 'last', 'limit', 'include']);

/** The variables a document's cost can depend on: every one inside a size or include argument. */
function costVariables(document: DocumentNode): string[] {
  const names = new Set<string>();
  visit(document, {
    Argument(node) {
      if (COST_ARGUMENTS.has(node.name.value)) {
        visit(node.value, {
          Variable(variable) {
            names.add(variable.name.value);
          },
        });
      }
      return false;
    },
  });
  return [...names];
}

/**
 * Costs already computed, by schema and document, then by what the walk reads that varies from
 * one request to the next: the operation name, the REST flag and include, and the values of the
 * document's cost variables (costVariables). Everything else the walk reads is the document and
 * the schema themselves. A REST route runs the same document on every request and a storefront
 * sends the same few queries (Yoga's parse cache hands back the same document): the walk of a
 * checkout's full Order selection was ~2% of a checkout visit's CPU.
 */
const computed = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, { variables: string[]; costs: Map<string, OperationCost> }>>();
/** Costs kept per document at most (then its memo starts over), and the longest key kept. */
const MAX_COSTS_PER_DOCUMENT = 256;
const MAX_COST_KEY = 1024;

/** The operation's cost (objects it may build) and the first list loop it enters, if any. */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
  variables?: Record<string, unknown> | null,
  options: { rest?: boolean; restQuery?: Readonly<Record<string, unknown>> } = {},
): OperationCost {
  let bySchema = computed.get(schema);
  if (!bySchema) computed.set(schema, (bySchema = new WeakMap()));
  let entry = bySchema.get(document);
  if (!entry) bySchema.set(document, (entry = { variables: costVariables(document), costs: new Map() }));
  const given = variables ?? {};
  let key: string | null;
  try {
    // [value] for a variable given (null included), 0 for one absent (its default applies).
    key = JSON.stringify([
      operationName ?? null,
      options.rest ?? false,
      options.rest ? (options.restQuery?.include ?? null) : null,
      entry.variables.map((name) => (name in given ? [given[name]] : 0)),
    ]);
  } catch {
    key = null; // a value JSON cannot hold: computed, not kept
  }
  if (key !== null && key.length > MAX_COST_KEY) key = null;
  const known = key === null ? undefined : entry.costs.get(key);
  if (known) return known;
  const cost = walkCost(schema, document, operationName, given, options);
  if (key !== null) {
    if (entry.costs.size >= MAX_COSTS_PER_DOCUMENT) entry.costs.clear();
    entry.costs.set(key, cost);
  }
  return cost;
}

function walkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
  options: { rest?: boolean; restQuery?: Readonly<Record<string, unknown>> },
): OperationCost {
  const operation = operationOf(document, operationName);
  if (!operation) return { cost: 0 };
  const rootType = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  if (!(rootType instanceof GraphQLObjectType)) return { cost: 0 };
  const walk: Walk = { schema, fragments: new Map(), variables, defaults: new Map(), rest: options.rest ?? false, restQuery: options.restQuery };
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) walk.fragments.set(d.name.value, d);
  for (const v of operation.variableDefinitions ?? []) if (v.defaultValue) walk.defaults.set(v.variable.name.value, valueFromASTUntyped(v.defaultValue));
  const cost = costOf(operation.selectionSet, rootType, 1, undefined, [], walk, true);
  return walk.loop ? { cost, loop: walk.loop } : { cost };
}

/** The sizes of page arguments (pageInput's `limit`), by their zod schema, for defineOperation. */
const pageArguments = new WeakMap<object, ListSize>();

export function declarePageArgument<T extends object>(limitSchema: T, defaultSize: number, max: number): T {
  pageArguments.set(limitSchema, { default: defaultSize, max });
  return limitSchema;
}

export function declaredPageArgument(limitSchema: object | undefined): ListSize | undefined {
  return limitSchema ? pageArguments.get(limitSchema) : undefined;
}
