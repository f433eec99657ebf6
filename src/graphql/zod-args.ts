// Turns a zod object into GraphQL arguments, so an operation declares its input once: the
// same schema gives the GraphQL argument types, the runtime validation (422 with the failing
// fields) and the OpenAPI request schema. Arguments stay flat because sofa fills them by name
// from path params, the query string and top-level JSON body keys.
import { z } from 'zod';

type AnyZod = z.core.$ZodType;

/** Schemas created by `money()`: GraphQL MinorUnits instead of Int (Int is only 32-bit). */
const moneySchemas = new WeakSet<AnyZod>();

/** An amount in integer minor units (non-negative unless `signed`), a safe integer. */
export function money(options: { signed?: boolean } = {}) {
  const base = z.number().int('must be a whole number of minor units');
  const schema = options.signed ? base : base.nonnegative('must not be negative');
  moneySchemas.add(schema);
  return schema;
}

/** Page, limit and cursor arguments of every list: see graphql/pagination.ts. */
export { pageInput } from './pagination.js';

export interface GraphqlArgType {
  /** Pothos type param: a scalar name, or a one-element array for lists. */
  type: string | [string];
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

function scalarFor(schema: AnyZod): string {
  const d = def(schema);
  switch (d.type) {
    case 'string':
      return d.format === 'uuid' || d.format === 'guid' ? 'UUID' : 'String';
    case 'number':
      if (moneySchemas.has(schema)) return 'MinorUnits';
      return isInt(schema) ? 'Int' : 'Float';
    case 'int':
      return 'Int';
    case 'boolean':
      return 'Boolean';
    case 'date':
      return 'DateTime';
    case 'enum':
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
 * Zod object schemas that GraphQL should see as a typed input object (a Pothos InputRef) instead
 * of JSONObject: `withGraphqlInput(schema, ref)` pairs them (the analytics query's filters and
 * time dimensions). zod still validates; the input type is what GraphiQL and SDKs show.
 */
const graphqlInputs = new WeakMap<object, unknown>();

export function withGraphqlInput<S extends AnyZod>(schema: S, ref: unknown): S {
  graphqlInputs.set(schema, ref);
  return schema;
}

function typeFor(schema: AnyZod): string {
  return (graphqlInputs.get(schema) as string | undefined) ?? scalarFor(schema);
}

export function graphqlArgType(schema: AnyZod): GraphqlArgType {
  const { inner, optional } = unwrap(schema);
  const description = (schema as { description?: string }).description ?? (inner as { description?: string }).description;
  const d = def(inner);
  if (d.type === 'array') {
    const element = unwrap(d.element as AnyZod).inner;
    return { type: [typeFor(element)], required: !optional, description };
  }
  return { type: typeFor(inner), required: !optional, description };
}

/** GraphQL gives null for an explicitly null optional argument; zod's optional() wants undefined. */
export function normalizeArgs(shape: Record<string, AnyZod>, args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === null && shape[key] && !unwrap(shape[key]).nullable) continue;
    out[key] = value;
  }
  return out;
}
