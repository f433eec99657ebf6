// Every GraphQL answer a test receives is checked against the schema the server runs: the shape
// the document asked for, walked over the response data with the schema's types. A mismatch
// throws in the t.graphql() call, so it fails the test that made the call, and schema.graphql
// (what SDKs are generated from) can never drift from the server's answers.
//
// Checked: every selected field is present and no other key is (aliases and fragments honoured,
// @skip/@include evaluated); a null only where the type is nullable or an error's path covers
// it (GraphQL nulls the nearest nullable parent of a failed non-null field); lists are arrays;
// scalars have their JS type (Int a 32-bit integer, MinorUnits a safe integer, UUID canonical,
// DateTime ISO 8601 in UTC, JSONObject a plain object); enum values are among the enum's.
import {
  Kind,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  typeFromAST,
  valueFromAST,
  GraphQLSkipDirective,
  GraphQLIncludeDirective,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type DirectiveNode,
  getDirectiveValues,
} from 'graphql';
import { countContract, logContractMismatch } from './contract-counts.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

type Json = unknown;

interface Walk {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Paths of errors, joined with '.', and every prefix of them. */
  covered: Set<string>;
  problems: string[];
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkScalar(name: string, value: Json): string | null {
  switch (name) {
    case 'Int':
      return Number.isInteger(value) && (value as number) >= -(2 ** 31) && (value as number) < 2 ** 31 ? null : 'a 32-bit integer';
    case 'MinorUnits':
      return Number.isSafeInteger(value) ? null : 'a safe integer (minor units)';
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a finite number';
    case 'String':
      return typeof value === 'string' ? null : 'a string';
    case 'ID':
      return typeof value === 'string' ? null : 'an ID string';
    case 'Boolean':
      return typeof value === 'boolean' ? null : 'a boolean';
    case 'UUID':
      return typeof value === 'string' && UUID.test(value) ? null : 'a canonical lower-case UUID';
    case 'DateTime':
      return typeof value === 'string' && ISO_UTC.test(value) && !Number.isNaN(Date.parse(value)) ? null : 'an ISO 8601 UTC timestamp';
    case 'JSONObject':
      return plainObject(value) ? null : 'a JSON object';
    case 'JSON':
      return null;
    default:
      return null; // a scalar this harness does not know (a plugin's): any JSON value
  }
}

function included(walk: Walk, directives: readonly DirectiveNode[] | undefined): boolean {
  if (!directives?.length) return true;
  const skip = getDirectiveValues(GraphQLSkipDirective, { directives } as never, walk.variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, { directives } as never, walk.variables);
  return include?.if !== false;
}

/**
 * The fields a selection set asks of a value of `runtime` type: response key → field name.
 * With an abstract type and no __typename in the answer, fragments on a concrete type are
 * `maybe`: their keys may appear but are not required.
 */
function collect(
  walk: Walk,
  parent: GraphQLCompositeType,
  runtime: GraphQLObjectType | null,
  selectionSet: SelectionSetNode,
  out: Map<string, { name: string; selections: SelectionSetNode[]; required: boolean }>,
  required = true,
): void {
  for (const selection of selectionSet.selections) {
    if (!included(walk, selection.directives)) continue;
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const entry = out.get(key) ?? { name: selection.name.value, selections: [], required: false };
      entry.required ||= required;
      if (selection.selectionSet) entry.selections.push(selection.selectionSet);
      out.set(key, entry);
      continue;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.fragments[selection.name.value];
    if (!fragment) continue;
    const condition = fragment.typeCondition ? walk.schema.getType(fragment.typeCondition.name.value) : parent;
    let applies: 'yes' | 'no' | 'maybe' = 'yes';
    if (condition && condition !== parent && condition !== runtime) {
      if (runtime) applies = isAbstractType(condition) && walk.schema.isSubType(condition, runtime) ? 'yes' : 'no';
      else applies = 'maybe';
    }
    if (applies === 'no') continue;
    collect(walk, parent, runtime, fragment.selectionSet, out, required && applies === 'yes');
  }
}

function walkValue(walk: Walk, type: GraphQLOutputType, value: Json, selections: SelectionSetNode[], at: string[]): void {
  const where = at.join('.') || '(data)';
  if (value === null || value === undefined) {
    if (value === undefined) walk.problems.push(`${where}: missing`);
    else if (isNonNullType(type) && !walk.covered.has(at.join('.'))) walk.problems.push(`${where}: null for non-null ${String(type)} with no error at this path`);
    return;
  }
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (!Array.isArray(value)) {
      walk.problems.push(`${where}: expected a list of ${String(inner.ofType)}, got ${typeof value}`);
      return;
    }
    value.forEach((item, i) => walkValue(walk, inner.ofType, item, selections, [...at, String(i)]));
    return;
  }
  if (isScalarType(inner)) {
    const expected = checkScalar(inner.name, value);
    if (expected) walk.problems.push(`${where}: ${inner.name} must be ${expected}, got ${JSON.stringify(value)}`);
    return;
  }
  if (isEnumType(inner)) {
    if (typeof value !== 'string' || !inner.getValue(value)) walk.problems.push(`${where}: ${JSON.stringify(value)} is not a value of enum ${inner.name}`);
    return;
  }
  if (!plainObject(value)) {
    walk.problems.push(`${where}: expected an object of type ${inner.name}, got ${JSON.stringify(value)}`);
    return;
  }
  const composite = inner as GraphQLCompositeType;
  let runtime: GraphQLObjectType | null = isObjectType(composite) ? composite : null;
  if (!runtime && typeof value.__typename === 'string') {
    const named = walk.schema.getType(value.__typename);
    if (!isObjectType(named) || !walk.schema.isSubType(composite as never, named)) {
      walk.problems.push(`${where}: __typename ${value.__typename} is not a possible type of ${composite.name}`);
      return;
    }
    runtime = named;
  }
  const fields = new Map<string, { name: string; selections: SelectionSetNode[]; required: boolean }>();
  for (const selectionSet of selections) collect(walk, composite, runtime, selectionSet, fields);
  for (const key of Object.keys(value)) if (!fields.has(key)) walk.problems.push(`${where}: unexpected key ${key}`);
  for (const [key, field] of fields) {
    if (!(key in value)) {
      if (field.required) walk.problems.push(`${[...at, key].join('.')}: missing`);
      continue;
    }
    if (field.name === '__typename') {
      if (typeof value[key] !== 'string') walk.problems.push(`${[...at, key].join('.')}: __typename must be a string`);
      continue;
    }
    const owner = runtime ?? composite;
    const definition = 'getFields' in owner ? owner.getFields()[field.name] : undefined;
    if (!definition) {
      if (runtime || !field.required) continue; // a field of a fragment on a type we could not tell
      walk.problems.push(`${[...at, key].join('.')}: ${owner.name} has no field ${field.name}`);
      continue;
    }
    walkValue(walk, definition.type, value[key], field.selections, [...at, key]);
  }
}

/** The problems of one answer (empty when it matches), or null when the request never executed. */
export function graphqlAnswerProblems(schema: GraphQLSchema, request: { query?: unknown; variables?: unknown; operationName?: unknown }, body: unknown): string[] | null {
  if (typeof request.query !== 'string' || !plainObject(body)) return null;
  // Refused before execution (credentials, origin, body guards): /graphql answers the API's error
  // envelope, as every route does; it must be exactly that.
  if ('error' in body && !('data' in body) && !('errors' in body)) {
    const error = body.error as { code?: unknown; message?: unknown } | null;
    const ok = Object.keys(body).length === 1 && plainObject(error) && typeof error.code === 'string' && typeof error.message === 'string';
    return ok ? [] : [`malformed error envelope ${JSON.stringify(body).slice(0, 200)}`];
  }
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch {
    return null; // a syntax error: the answer is an error list, nothing to walk
  }
  const problems: string[] = [];
  const errors = Array.isArray(body.errors) ? (body.errors as Array<{ path?: Array<string | number> }>) : [];
  for (const key of Object.keys(body)) if (!['data', 'errors', 'extensions'].includes(key)) problems.push(`unexpected top-level key ${key}`);
  if (!('data' in body) || body.data === null) {
    if (!errors.length) problems.push('no data and no errors');
    return problems;
  }
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation =
    typeof request.operationName === 'string' ? operations.find((o) => o.name?.value === request.operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation) return problems;
  const root = operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (!root) return problems;
  const covered = new Set<string>();
  for (const error of errors) {
    const p = error.path ?? [];
    for (let i = 0; i <= p.length; i++) covered.add(p.slice(0, i).map(String).join('.'));
  }
  // Variables as the server coerced them (defaults applied), for @skip/@include.
  const given = plainObject(request.variables) ? request.variables : {};
  const variables: Record<string, unknown> = { ...given };
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!(name in variables) && definition.defaultValue) {
      const type = typeFromAST(schema, definition.type as never);
      if (type) variables[name] = valueFromAST(definition.defaultValue, type as never);
    }
  }
  const fragments = Object.fromEntries(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const walk: Walk = { schema, fragments, variables, covered, problems };
  walkValue(walk, root, body.data, [operation.selectionSet], []);
  return problems;
}

// ── counting ──
// Answers checked go to the run's contract counts (contract-counts.ts), beside the REST harness's.
let validated = 0;

/**
 * Throws when a GraphQL answer does not match the schema; counts the answers checked. Answers
 * that are not JSON GraphQL results (a 4xx before execution, a multipart body) are skipped.
 */
export function assertGraphqlAnswer(schema: GraphQLSchema, request: { query?: unknown; variables?: unknown; operationName?: unknown }, body: unknown): void {
  const problems = graphqlAnswerProblems(schema, request, body);
  if (problems === null) return;
  validated += 1;
  countContract('graphql', problems.length === 0);
  if (problems.length) {
    logContractMismatch({ kind: 'graphql', query: String(request.query).slice(0, 500), problems: problems.slice(0, 20) });
    throw new Error(`GraphQL answer does not match the schema:\n  ${problems.slice(0, 20).join('\n  ')}\nquery: ${String(request.query).slice(0, 500)}`);
  }
}

/** Answers validated by this process so far. */
export function graphqlAnswersValidated(): number {
  return validated;
}
