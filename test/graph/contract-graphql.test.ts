// The GraphQL answer validator (test/support/contract-graphql.ts) that checks every t.graphql()
// answer: it must catch each kind of drift, or the suite-wide check proves nothing.
import { describe, expect, it } from 'vitest';
import { buildSchema as buildSdl } from 'graphql';
import { graphqlAnswerProblems } from '../support/contract-graphql.js';

const schema = buildSdl(`
  scalar UUID
  scalar DateTime
  scalar MinorUnits
  scalar JSONObject
  enum Status { draft active }
  interface Node { id: UUID! }
  type Item implements Node { id: UUID! status: Status! amount: MinorUnits! count: Int at: DateTime meta: JSONObject tags: [String!]! }
  type Other implements Node { id: UUID! name: String! }
  type Query { item: Item items: [Item!]! node: Node mustHave: Item! }
`);

const ID = '3f2b1c7e-8a4d-4e7b-9c1a-0b2d3e4f5a6b';
const good = { id: ID, status: 'active', amount: 3_000_000_000, count: 2, at: '2026-11-25T10:00:00.000Z', meta: { a: 1 }, tags: ['x'] };
const SELECT = 'id status amount count at meta tags';

function problems(query: string, data: unknown, errors?: unknown[], variables?: Record<string, unknown>) {
  return graphqlAnswerProblems(schema, { query, variables }, errors ? { data, errors } : { data });
}

describe('GraphQL answer validator', () => {
  it('accepts a matching answer, aliases, fragments and skipped fields', () => {
    expect(problems(`{ item { ${SELECT} } }`, { item: good })).toEqual([]);
    expect(problems(`{ a: item { i: id } }`, { a: { i: ID } })).toEqual([]);
    expect(problems(`{ node { __typename ... on Other { name } ...F } } fragment F on Item { status }`, { node: { __typename: 'Item', status: 'draft' } })).toEqual([]);
    expect(problems(`query($s: Boolean!) { item { id status @skip(if: $s) } }`, { item: { id: ID } }, undefined, { s: true })).toEqual([]);
  });

  it('finds wrong scalar types, bad enum values, extra and missing keys', () => {
    const found = problems(`{ item { ${SELECT} } }`, {
      item: { ...good, id: 'nope', status: 'gone', amount: 1.5, count: 2 ** 31, at: 'yesterday', meta: [1], tags: 'x', extra: 1 },
    });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringContaining('item.id: UUID'),
        expect.stringContaining('not a value of enum Status'),
        expect.stringContaining('item.amount: MinorUnits'),
        expect.stringContaining('item.count: Int'),
        expect.stringContaining('item.at: DateTime'),
        expect.stringContaining('item.meta: JSONObject'),
        expect.stringContaining('item.tags: expected a list'),
        expect.stringContaining('unexpected key extra'),
      ]),
    );
    expect(problems(`{ item { id status } }`, { item: { id: ID } })).toEqual(['item.status: missing']);
  });

  it('allows null for a non-null field only where an error path covers it', () => {
    expect(problems(`{ items { id } }`, { items: [{ id: null }] })).toEqual([expect.stringContaining('items.0.id: null for non-null')]);
    expect(problems(`{ mustHave { id } }`, { mustHave: null })).toEqual([expect.stringContaining('mustHave: null for non-null')]);
    expect(problems(`{ mustHave { id } }`, { mustHave: null }, [{ message: 'x', path: ['mustHave', 'id'] }])).toEqual([]);
    expect(problems(`{ item { id } }`, null, [{ message: 'refused' }])).toEqual([]);
    expect(problems(`{ item { id } }`, null)).toEqual(['no data and no errors']);
  });
});
