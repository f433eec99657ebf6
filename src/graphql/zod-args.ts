// Turns a zod object into GraphQL arguments, so an operation declares its input once: the
// same schema gives the GraphQL argument types, the runtime validation (422 with the failing
// fields) and the OpenAPI request schema. Arguments stay flat because sofa fills them by name
// from path params, the query string and top-level JSON body keys.
import { z } from 'zod';
import { builder } from './builder.js';
import { canBeEnumValues, defineEnum, enumWithValues } from './enums.js';

type AnyZod = z.core.$ZodType;

/**
 * The integer checks of schemas created by `money()`: GraphQL MinorUnits instead of Int (Int is
 * only 32-bit). The check, not the schema, is the marker: `.describe()`, `.max()` and the other
 * zod refinements return a copy of the schema, but the copy keeps the same check objects.
 */
const moneyChecks = new WeakSet<object>();

/** An amount in integer minor units (non-negative unless `signed`), a safe integer (|n| ≤ 2^53 − 1). */
export function money(options: { signed?: boolean } = {}) {
  const base = z.number().int('must be a whole number of minor units');
  for (const check of (def(base).checks as object[] | undefined) ?? []) moneyChecks.add(check);
  return options.signed ? base : base.nonnegative('must not be negative');
}

function isMoney(schema: AnyZod): boolean {
  return ((def(schema).checks as object[] | undefined) ?? []).some((check) => moneyChecks.has(check));
}

/** Page, limit and cursor arguments of every list: see graphql/pagination.ts. */
export { pageInput } from './pagination.js';

export interface GraphqlArgType {
  /** Pothos type param: a scalar name or a type ref, or a one-element array for lists. */
  type: unknown;
  required: boolean;
  description?: string;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

function def(schema: AnyZod): { type: string; [key: string]: unknown } {
  return schema._zod.def as unknown as { type: string; [key: string]: unknown };
}

/** Strips optional/nullable/default wrappers; reports whether the value may be omitted. */
export function unwrap(schema: AnyZod): { inner: AnyZod; optional: boolean; nullable: boolean } {
  let inner = schema;
  let optional = false;
  let nullable = false;
  while (true) {
    const d = def(inner);
    if (d.type === 'optional' || d.type === 'default' || d.type === 'prefault' || d.type === 'catch') optional = true;
    if (d.type === 'nullable') nullable = optional = true;
    if (WRAPPERS.has(d.type)) inner = d.innerType as AnyZod;
    else if (d.type === 'pipe') inner = d.in as AnyZod;
    else return { inner, optional, nullable };
  }
}

function isInt(schema: AnyZod): boolean {
  const d = def(schema);
  if (d.format === 'safeint' || d.format === 'int32') return true;
  const checks = (d.checks as Array<{ _zod: { def: { check: string; format?: string } } }> | undefined) ?? [];
  return checks.some((c) => c._zod.def.check === 'number_format' && (c._zod.def.format === 'safeint' || c._zod.def.format === 'int32'));
}

/** `orderStatusUpdate` + `status` → `OrderStatusUpdateStatus`: the name of an argument's own enum. */
function pascal(...words: string[]): string {
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/**
 * A zod enum as a GraphQL enum: the output enum with exactly the same values when one exists
 * (orders(status) takes OrderStatus), else an enum of its own named after where it is used
 * (`hint`, e.g. PromotionsStatus). Values that cannot be GraphQL enum names (`last 7 days`)
 * keep the argument a String, so REST clients send what they always sent. The value names are
 * the strings themselves, so REST query strings and bodies are unchanged.
 */
function enumFor(schema: AnyZod, hint: string | undefined): unknown {
  const values = Object.values(def(schema).entries as Record<string, string | number>);
  if (!values.every((v): v is string => typeof v === 'string') || !canBeEnumValues(values)) return 'String';
  const named = graphqlInputs.get(schema);
  if (typeof named === 'string') return defineEnum(named, values, (schema as { description?: string }).description ?? `One of ${values.join(', ')}.`);
  const existing = enumWithValues(values);
  if (existing) return existing;
  if (!hint) return 'String';
  return defineEnum(hint, values, `One of ${values.join(', ')}.`);
}

function scalarFor(schema: AnyZod, hint?: string): unknown {
  const d = def(schema);
  switch (d.type) {
    case 'string':
      return d.format === 'uuid' || d.format === 'guid' ? 'UUID' : 'String';
    case 'number':
      if (isMoney(schema)) return 'MinorUnits';
      return isInt(schema) ? 'Int' : 'Float';
    case 'int':
      return 'Int';
    case 'boolean':
      return 'Boolean';
    case 'date':
      return 'DateTime';
    case 'enum':
      return enumFor(schema, hint);
    case 'literal':
      return 'String';
    case 'object':
    case 'record':
      return 'JSONObject';
    default:
      return 'JSON';
  }
}

/**
 * Zod schemas that GraphQL should see as a named type instead of JSONObject or String:
 * `withGraphqlInput(schema, ref)` pairs an object schema with a Pothos InputRef (the analytics
 * query's filters); `withGraphqlInput(schema, 'AddressInput')` builds the input object from the
 * zod shape itself (an enum schema gets an enum of that name). zod still validates; the type
 * is what GraphiQL and SDKs show.
 *
 * The built input object's fields are all optional in GraphQL, whatever zod requires: GraphQL
 * coercion would refuse a missing field before zod runs, with a message and no field path,
 * where zod answers 422 naming it (`shippingAddress.country`). Required fields say so.
 */
const graphqlInputs = new WeakMap<object, unknown>();
const builtInputs = new Map<string, unknown>();

export function withGraphqlInput<S extends AnyZod>(schema: S, ref: unknown): S {
  const d = def(schema);
  if (typeof ref === 'string' && d.type === 'object') {
    graphqlInputs.set(schema, builtInputs.get(ref) ?? inputObject(ref, d.shape as Record<string, AnyZod>, (schema as { description?: string }).description));
  } else graphqlInputs.set(schema, ref);
  return schema;
}

function inputObject(name: string, shape: Record<string, AnyZod>, description?: string): unknown {
  // Field types are worked out now, not in Pothos' lazy fields callback: enums they need are
  // declared here, before the schema is built.
  const base = name.replace(/Input$/, '');
  const fields = Object.entries(shape).map(([key, value]) => {
    const arg = graphqlArgType(value, pascal(base, key));
    const note = arg.required ? 'Required.' : undefined;
    return [key, { type: arg.type, description: [arg.description, note].filter(Boolean).join(' ') || undefined }] as const;
  });
  const loose = builder as unknown as { inputType(name: string, options: Record<string, unknown>): unknown };
  const ref = loose.inputType(name, {
    description,
    fields: (t: { field(options: Record<string, unknown>): unknown }) =>
      Object.fromEntries(fields.map(([key, field]) => [key, t.field({ type: field.type, required: false, description: field.description })])),
  });
  builtInputs.set(name, ref);
  return ref;
}

function typeFor(schema: AnyZod, hint?: string): unknown {
  const ref = graphqlInputs.get(schema);
  return ref && typeof ref !== 'string' ? ref : scalarFor(schema, hint);
}

/**
 * The GraphQL type of one zod argument. `hint` names an enum the argument would need of its own
 * (see enumFor); call this before the schema is built (defineOperation does, eagerly).
 */
export function graphqlArgType(schema: AnyZod, hint?: string): GraphqlArgType {
  const { inner, optional } = unwrap(schema);
  const description = (schema as { description?: string }).description ?? (inner as { description?: string }).description;
  const d = def(inner);
  if (d.type === 'array') {
    const element = unwrap(d.element as AnyZod).inner;
    return { type: [typeFor(element, hint)], required: !optional, description };
  }
  return { type: typeFor(inner, hint), required: !optional, description };
}

/** The enum-name hint of an operation's argument: `orders` + `status` → `OrdersStatus`. */
export function argumentHint(operation: string, argument: string): string {
  return pascal(operation, argument);
}

/** GraphQL gives null for an explicitly null optional argument; zod's optional() wants undefined. */
export function normalizeArgs(shape: Record<string, AnyZod>, args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    if (value === null && Object.hasOwn(shape, key) && !unwrap(shape[key]!).nullable) continue;
    out[key] = value;
  }
  return out;
}

/**
 * Top-level body values a structured argument (an input object, or a list of them) cannot take:
 * sofa would try to parse a string there as JSON and answer with the parser's message and no
 * field. The REST facade answers these 422 naming the field instead.
 */
const COERCION_CODES = new Set(['invalid_type', 'invalid_format', 'invalid_value']);

export function structuredArgumentIssues(shape: Record<string, AnyZod>, body: Record<string, unknown>): Array<{ field: string; message: string }> {
  const issues: Array<{ field: string; message: string }> = [];
  for (const [key, value] of Object.entries(body)) {
    // Own keys only: a body key such as `valueOf` or `constructor` must not find Object.prototype's.
    const schema = Object.hasOwn(shape, key) ? shape[key] : undefined;
    // Objects and lists are checked by their GraphQL input types and the resolver's zod parse.
    if (!schema || value === null || typeof value === 'object') continue;
    // A scalar of the wrong kind (1.5 for an Int, "nope" for a UUID, a string for an address):
    // GraphQL's coercion would refuse it without naming the field, so the field's own zod schema
    // names it first (the resolver validates the same schema: nothing is refused here that it
    // would accept).
    const parsed = (
      schema as unknown as { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string; code: string; format?: string }> } } }
    ).safeParse(value);
    if (parsed.success) continue;
    // Only what GraphQL's own coercion refuses before execution (a wrong type, a non-UUID, a
    // value outside an enum): rule errors (a minimum, a length) stay after the permission check,
    // so an anonymous caller with a bad body still gets 401 first.
    const coercion = (parsed.error?.issues ?? []).filter(
      (issue) => COERCION_CODES.has(issue.code) && (issue.code !== 'invalid_format' || issue.format === 'uuid' || issue.format === 'guid'),
    );
    for (const issue of coercion) issues.push({ field: [key, ...issue.path.map(String)].join('.'), message: issue.message });
  }
  return issues;
}
