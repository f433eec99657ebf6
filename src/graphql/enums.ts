// Closed sets as GraphQL enums. The value names are the stored strings themselves (lowercase,
// as the REST contract spells them), so a REST body is byte-for-byte what it was with String
// fields, while GraphQL clients and generated SDKs get a union type instead of `string`.
import { builder } from './builder.js';

const enums = new Map<string, unknown>();
/** Value set (sorted, joined) → enum ref: zod-args reuses an output enum for an argument of the same closed set. */
const byValues = new Map<string, unknown>();

const valueKey = (values: readonly string[]) => [...values].sort().join('\u0000');

/** The GraphQL enum declared with exactly these values, if any (graphql/zod-args.ts). */
export function enumWithValues(values: readonly string[]): unknown {
  return byValues.get(valueKey(values));
}

/** GraphQL enum value names are `[_A-Za-z][_0-9A-Za-z]*` and not true/false/null. */
export function canBeEnumValues(values: readonly string[]): boolean {
  return values.length > 0 && values.every((v) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(v) && v !== 'true' && v !== 'false' && v !== 'null');
}

export function defineEnum<const T extends readonly string[]>(name: string, values: T, description: string, valueDescriptions: Partial<Record<T[number], string>> = {}) {
  const existing = enums.get(name);
  if (existing) return existing as ReturnType<typeof create<T>>;
  const ref = create(name, values, description, valueDescriptions);
  enums.set(name, ref);
  if (!byValues.has(valueKey(values))) byValues.set(valueKey(values), ref);
  return ref;
}

function create<T extends readonly string[]>(name: string, values: T, description: string, valueDescriptions: Partial<Record<T[number], string>> = {}) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(values.map((value) => [value, { value, description: valueDescriptions[value as T[number]] }])) as unknown as Record<T[number], { value: T[number] }>,
  });
}
