// Closed sets as GraphQL enums. The value names are the stored strings themselves (lowercase,
// as the REST contract spells them), so a REST body is byte-for-byte what it was with String
// fields, while GraphQL clients and generated SDKs get a union type instead of `string`.
import { builder } from './builder.js';

const enums = new Map<string, unknown>();

export function defineEnum<const T extends readonly string[]>(name: string, values: T, description: string, valueDescriptions: Partial<Record<T[number], string>> = {}) {
  const existing = enums.get(name);
  if (existing) return existing as ReturnType<typeof create<T>>;
  const ref = create(name, values, description, valueDescriptions);
  enums.set(name, ref);
  return ref;
}

function create<T extends readonly string[]>(name: string, values: T, description: string, valueDescriptions: Partial<Record<T[number], string>> = {}) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(values.map((value) => [value, { value, description: valueDescriptions[value as T[number]] }])) as unknown as Record<T[number], { value: T[number] }>,
  });
}
