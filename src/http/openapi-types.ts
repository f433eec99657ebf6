// Response schemas of /api/doc, derived from the GraphQL schema the REST facade runs on. sofa's
// own derivation never says `nullable` and calls every non-null field required, including fields
// a route never selects; here each route's selection is rebuilt exactly as sofa builds it
// (@graphql-tools/utils' buildOperationNodeForField with sofa's models and circular depth), so:
//   - a nullable GraphQL type is `nullable: true` (a `$ref` is wrapped in `allOf` to carry it),
//   - an object type's `required` lists its non-null fields selected in *every* place a route
//     returns that type (a field cut by the circular-reference limit is optional),
//   - a catalog embed (field extension `embed`) is never required: over REST it is null unless
//     `include` names it,
//   - every enum is one named component, referenced by `$ref`,
//   - only types some route returns become components (no unused ones).
import {
  getNamedType,
  isEnumType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  Kind,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationTypeNode,
  type SelectionSetNode,
} from 'graphql';
import { buildOperationNodeForField } from '@graphql-tools/utils';

type Json = Record<string, unknown>;

/** sofa's `depthLimit`, which it passes as the circular-reference depth of its selections. */
const SOFA_CIRCULAR_DEPTH = 2;

/** How our scalars look in JSON (the facade gives sofa the same map for its own document). */
export const SCALAR_SCHEMAS: Record<string, Json> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  UUID: { type: 'string', format: 'uuid' },
  DateTime: { type: 'string', format: 'date-time' },
  MinorUnits: { type: 'integer', format: 'int64', minimum: -9007199254740991, maximum: 9007199254740991, description: 'Integer minor units of the currency' },
  SafeInt: { type: 'integer', format: 'int64', minimum: -9007199254740991, maximum: 9007199254740991 },
  JSON: { description: 'Any JSON value' },
  JSONObject: { type: 'object', additionalProperties: true },
};

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * A `$ref` with siblings: OpenAPI 3.0 ignores siblings of `$ref`, so they go beside an allOf. A
 * nullable one also repeats the target's `type` (3.0 allows `nullable` only next to `type`).
 */
export function refWith(name: string, extras: Json, type?: string): Json {
  const meaningful = Object.fromEntries(Object.entries(extras).filter(([, v]) => v !== undefined && v !== false));
  if (!Object.keys(meaningful).length) return ref(name);
  return { ...(meaningful.nullable && type ? { type } : {}), allOf: [ref(name)], ...meaningful };
}

/**
 * The types sofa treats as "models" (a nested one is selected as `{ id }` only): an object type
 * with an `id` field that Query lists as `<type>s` and reads as `<type>(id)`. A copy of sofa's
 * private extractsModels, so the document follows the same rule.
 */
function sofaModels(schema: GraphQLSchema): string[] {
  const found = new Map<string, { list: boolean; single: boolean }>();
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    const named = getNamedType(field.type);
    if (!isObjectType(named) || !named.getFields().id) continue;
    const entry = found.get(named.name) ?? { list: false, single: false };
    const inner = isNonNullType(field.type) ? field.type.ofType : field.type;
    if (isListType(inner)) entry.list ||= same(field.name, `${named.name}s`) && !field.args.some((a) => isNonNullType(a.type));
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    else entry.single ||= same(field.name, named.name) && field.args.length === 1 && field.args[0]!.name === 'id';
    found.set(named.name, entry);
  }
  return [...found].filter(([, e]) => e.list && e.single).map(([name]) => name);
}

interface TypeUse {
  /** Fields selected at least once, with the schema of each. */
  properties: Map<string, Json>;
  /** Per place the type is returned, the set of fields selected there. */
  occurrences: Array<Set<string>>;
}

export interface ResponseSchemas {
  /** Schema of the root field's value per `query.x` / `mutation.x` (before the `{ data }` envelope). */
  roots: Map<string, Json>;
  /** Object, enum and union components, by GraphQL type name. */
  components: Record<string, Json>;
  /** Enum components, by GraphQL enum name (for replacing inline copies in request schemas). */
  enums: Map<string, string[]>;
}

export function buildResponseSchemas(schema: GraphQLSchema, rootFields: Array<{ kind: 'query' | 'mutation'; name: string }>): ResponseSchemas {
  const models = sofaModels(schema);
  const objects = new Map<string, TypeUse>();
  const enums = new Map<string, Json>();
  const unions = new Map<string, Json>();

  function named(type: GraphQLNamedType, selection: SelectionSetNode | undefined): Json {
    if (isScalarType(type)) return { ...(SCALAR_SCHEMAS[type.name] ?? {}) };
    if (isEnumType(type)) {
      if (!enums.has(type.name)) {
        enums.set(type.name, { type: 'string', enum: type.getValues().map((v) => v.name), ...(type.description ? { description: type.description } : {}) });
      }
      return ref(type.name);
    }
    if (isUnionType(type) || isInterfaceType(type)) {
      // sofa selects each member through an inline fragment on it.
      const members: string[] = [];
      for (const s of selection?.selections ?? []) {
        if (s.kind !== Kind.INLINE_FRAGMENT || !s.typeCondition) continue;
        const member = schema.getType(s.typeCondition.name.value);
        if (member && isObjectType(member)) {
          object(member, s.selectionSet);
          members.push(member.name);
        }
      }
      unions.set(type.name, { oneOf: members.map(ref), ...(type.description ? { description: type.description } : {}) });
      return ref(type.name);
    }
    object(type as GraphQLObjectType, selection);
    return ref(type.name);
  }

  function typed(type: GraphQLOutputType, selection: SelectionSetNode | undefined, extras: Json = {}): Json {
    const nullable = !isNonNullType(type);
    const inner = isNonNullType(type) ? type.ofType : type;
    let schema: Json;
    if (isListType(inner)) schema = { type: 'array', items: typed(inner.ofType, selection), ...extras };
    else {
      const base = named(inner as GraphQLNamedType, selection);
      if (base.$ref) {
        const jsonType = isEnumType(inner) ? 'string' : 'object';
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        return refWith(String(base.$ref).split('/').pop()!, { ...extras, nullable: nullable || undefined }, jsonType);
      }
      schema = { ...base, ...extras };
      // An untyped JSON value already admits null.
      if (!('type' in base)) return schema;
    }
    return nullable ? { ...schema, nullable: true } : schema;
  }

  function object(type: GraphQLObjectType, selection: SelectionSetNode | undefined): void {
    const use = objects.get(type.name) ?? { properties: new Map<string, Json>(), occurrences: [] };
    objects.set(type.name, use);
    const selected = new Set<string>();
    use.occurrences.push(selected);
    const fields = type.getFields();
    for (const s of selection?.selections ?? []) {
      if (s.kind !== Kind.FIELD) continue;
      const field = fields[s.name.value] as GraphQLField<unknown, unknown> | undefined;
      if (!field) continue;
      const key = s.alias?.value ?? s.name.value;
      selected.add(key);
      const embed = field.extensions?.embed as string | undefined;
      const description = [field.description, embed ? `Over REST: present only with include=${embed}.` : undefined].filter(Boolean).join(' ') || undefined;
      const schema = typed(field.type, s.selectionSet, description ? { description } : {});
      if (field.deprecationReason) schema.deprecated = true;
      if (!use.properties.has(key)) use.properties.set(key, schema);
    }
  }

  const roots = new Map<string, Json>();
  for (const root of rootFields) {
    const parent = root.kind === 'query' ? schema.getQueryType() : schema.getMutationType();
    const field = parent?.getFields()[root.name];
    if (!field) continue;
    const operation = buildOperationNodeForField({
      schema,
      kind: root.kind as OperationTypeNode,
      field: root.name,
      models,
      ignore: [],
      circularReferenceDepth: SOFA_CIRCULAR_DEPTH,
    });
    const top = operation.selectionSet.selections[0];
    const selection = top?.kind === Kind.FIELD ? top.selectionSet : undefined;
    roots.set(`${root.kind}.${root.name}`, typed(field.type, selection));
  }

  const components: Record<string, Json> = {};
  for (const [name, schema] of enums) components[name] = schema;
  for (const [name, schema] of unions) components[name] = schema;
  for (const [name, use] of [...objects].sort(([a], [b]) => a.localeCompare(b))) {
    const type = schema.getType(name) as GraphQLObjectType;
    const fields = type.getFields();
    const required = [...use.properties.keys()].filter((key) => {
      const field = fields[key];
      if (!field || !isNonNullType(field.type) || field.extensions?.embed) return false;
      return use.occurrences.every((occurrence) => occurrence.has(key));
    });
    components[name] = {
      type: 'object',
      ...(required.length ? { required } : {}),
      properties: Object.fromEntries(use.properties),
      ...(type.description ? { description: type.description } : {}),
    };
  }
  return {
    roots,
    components,
    enums: new Map([...enums].map(([name, schema]) => [name, schema.enum as string[]])),
  };
}
