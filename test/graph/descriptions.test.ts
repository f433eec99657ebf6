// Names and descriptions a client can rely on: every type, field, argument, enum value and input
// field of the served schema has a description (written at its declaration or from the shared
// glossary in src/graphql/descriptions.ts), no description merely restates its name, and every
// id is spelled `id`, `...Id` or `...Ids`. A new undescribed element fails here, listed by name.
import { describe, expect, it } from 'vitest';
import { buildSchema as buildFromSdl, getNamedType, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { buildSchema } from '../../src/schema.js';

interface Element {
  path: string;
  name: string;
  description: string | null | undefined;
  type?: string;
}

/** Every describable element of a schema, with its path (`Type`, `Type.field`, `Type.field(arg)`, `Enum.VALUE`). */
function elements(schema: GraphQLSchema): Element[] {
  const out: Element[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
    out.push({ path: type.name, name: type.name, description: type.description });
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        out.push({ path: `${type.name}.${field.name}`, name: field.name, description: field.description, type: (getNamedType(field.type) as unknown as { name: string }).name });
        for (const arg of 'args' in field ? field.args : []) {
          out.push({
            path: `${type.name}.${field.name}(${arg.name})`,
            name: arg.name,
            description: arg.description,
            type: (getNamedType(arg.type) as unknown as { name: string }).name,
          });
        }
      }
    }
    if (isEnumType(type)) for (const value of type.getValues()) out.push({ path: `${type.name}.${value.name}`, name: value.name, description: value.description });
  }
  return out;
}

function undescribed(schema: GraphQLSchema): string[] {
  return elements(schema)
    .filter((e) => !e.description?.trim())
    .map((e) => e.path);
}

function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
}

describe('schema descriptions', () => {
  const schema = buildSchema();

  it('describes every type, field, argument, enum value and input field', () => {
    expect(undescribed(schema)).toEqual([]);
  });

  it('finds undescribed elements (the walker itself)', () => {
    const sample = buildFromSdl(`
      """Described"""
      type Query { a(x: Int): Int, """Described""" b: E }
      enum E { ONE """Described""" TWO }
      input I { c: Int }
    `);
    expect(undescribed(sample).sort()).toEqual(['E', 'E.ONE', 'I', 'I.c', 'Query.a', 'Query.a(x)'].sort());
  });

  it('has no description that only restates the name', () => {
    const restated = elements(schema).filter((e) => e.description && words(e.name) === e.description.trim().replace(/\.$/, '').toLowerCase());
    expect(restated.map((e) => `${e.path}: ${e.description}`)).toEqual([]);
  });

  it('spells every UUID field and argument id, ...Id or ...Ids', () => {
    const misnamed = elements(schema).filter((e) => e.type === 'UUID' && !/^id$|Ids?$/.test(e.name));
    expect(misnamed.map((e) => e.path)).toEqual([]);
    // Fields holding an actor id are String (a user id is not a UUID): their ...Id spellings exist.
    const fields = Object.fromEntries(elements(schema).map((e) => [e.path, e]));
    expect(fields['OrderFulfillment.createdById']).toBeDefined();
    expect(fields['OrderRefund.undoneById']).toBeDefined();
  });
});
