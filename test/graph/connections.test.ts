// Relay-style cursors on every list (graphql/pagination.ts): `first`/`after` and `last`/`before`
// beside page/limit, `edges`, `pageInfo` and `totalCount` in GraphQL, `meta.pagination.endCursor`
// and `hasNextPage` over REST. Cursors are keyset positions: infinite scroll while rows are
// inserted yields every row that existed when scrolling began exactly once (offset pages, run
// the same way, repeat rows: the control that shows the inserts do disturb a naive scroll).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createEntity, inBatches } from '../catalog/helpers.js';

let t: TestApp;
let admin: string;
const STATUSES = ['draft', 'active', 'archived', 'discontinued'];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  // 60 entities: a mix of statuses, so publishedAt is null for some (nullable sort key) and the
  // status sort (an enum) has ties across pages.
  await inBatches(
    Array.from({ length: 60 }, (_, i) => i),
    6,
    (i) => createEntity(t, admin, { status: STATUSES[i % 4] }),
  );
}, 300_000);
afterAll(() => t?.close());

const SCROLL = `query($first: Int, $after: String, $sort: String) {
  catalogEntities(first: $first, after: $after, sort: $sort) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { id slug } }
    data { id }
    meta { pagination { limit total hasNextPage endCursor } }
  }
}`;

/** Every entity of the test organization, in the order offset pages give them (no inserts meanwhile). */
async function allIds(sort = 'createdAt:desc'): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const res = await t.request(`/api/catalog/entities?limit=100&page=${page}&sort=${sort}`, { apiKey: admin });
    expect(res.status, res.text).toBe(200);
    ids.push(...res.body.data.map((d: any) => d.id));
    if (page >= res.body.meta.pagination.totalPages) return ids;
  }
}

/** Scrolls a whole list by cursor, `first` at a time, calling `between` after each page. */
async function scroll(sort: string | undefined, first: number, between: () => Promise<unknown> = async () => undefined) {
  const seen: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages += 1) {
    const [res] = await Promise.all([t.graphql(SCROLL, { first, after, sort }, { apiKey: admin }), between()]);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    const page = res.body.data.catalogEntities;
    expect(page.edges.map((e: any) => e.node.id)).toEqual(page.data.map((d: any) => d.id));
    expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
    expect(page.meta.pagination.endCursor).toBe(page.pageInfo.endCursor);
    expect(page.meta.pagination.hasNextPage).toBe(page.pageInfo.hasNextPage);
    expect(page.pageInfo.hasPreviousPage).toBe(after !== undefined);
    seen.push(...page.data.map((d: any) => d.id));
    if (!page.pageInfo.hasNextPage) return seen;
    after = page.pageInfo.endCursor;
  }
  throw new Error('scroll did not end');
}

describe('cursor pagination', () => {
  it('infinite scroll while entities are inserted concurrently yields every pre-existing entity exactly once', async () => {
    const before = new Set(await allIds());
    let inserted = 0;
    const insert = () => inBatches([0, 1, 2], 3, () => createEntity(t, admin, { status: 'active' }).then(() => (inserted += 1)));
    const seen = await scroll(undefined, 7, insert);
    expect(inserted).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before)
      expect(
        seen.filter((s) => s === id),
        id,
      ).toHaveLength(1);
  });

  it('offset pages under the same inserts repeat rows (why cursors exist)', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const [res] = await Promise.all([
        t.request(`/api/catalog/entities?page=${page}&limit=7`, { apiKey: admin }),
        inBatches([0, 1, 2], 3, () => createEntity(t, admin, { status: 'active' })),
      ]);
      seen.push(...res.body.data.map((d: any) => d.id));
    }
    expect(new Set(seen).size).toBeLessThan(seen.length);
  });

  it.each(['publishedAt:desc', 'publishedAt:asc', 'status:asc', 'status:desc', 'slug:asc', 'updatedAt:desc'])(
    'scrolls sort=%s (nullable and enum keys included) through every entity once',
    async (sort) => {
      const ids = await allIds(sort);
      expect(ids.length).toBeGreaterThan(60);
      // The same rows in the same order as offset pages.
      expect(await scroll(sort, 9)).toEqual(ids);
    },
  );

  it('walks backward with last/before to the same rows in the same order', async () => {
    const forward = await t.graphql(SCROLL, { first: 10, sort: 'slug:asc' }, { apiKey: admin });
    const first = forward.body.data.catalogEntities;
    const next = (await t.graphql(SCROLL, { first: 10, after: first.pageInfo.endCursor, sort: 'slug:asc' }, { apiKey: admin })).body.data.catalogEntities;
    const back = await t.graphql(
      `query($before: String) { catalogEntities(last: 10, before: $before, sort: "slug:asc") { data { id } pageInfo { hasNextPage hasPreviousPage startCursor } } }`,
      { before: next.pageInfo.startCursor },
      { apiKey: admin },
    );
    expect(back.body.errors).toBeUndefined();
    expect(back.body.data.catalogEntities.data).toEqual(first.data);
    expect(back.body.data.catalogEntities.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: first.pageInfo.startCursor });
  });

  it('costs the same statements for first: 10 and first: 100', async () => {
    const query = `query($first: Int) { catalogEntities(first: $first) { totalCount pageInfo { endCursor } edges { cursor node { id slug } } } }`;
    const measure = async (first: number) => {
      const counts = [];
      for (let i = 0; i < 2; i += 1) {
        const before = t.statements();
        const res = await t.graphql(query, { first }, { apiKey: admin });
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.catalogEntities.edges).toHaveLength(first);
        counts.push(t.statements() - before);
      }
      return Math.min(...counts);
    };
    const { total } = (await t.request('/api/catalog/entities?limit=1', { apiKey: admin })).body.meta.pagination;
    await inBatches(
      Array.from({ length: Math.max(0, 101 - total) }, (_, i) => i),
      6,
      () => createEntity(t, admin, {}),
    );
    await measure(1);
    const ten = await measure(10);
    const hundred = await measure(100);
    expect(ten).toBe(hundred);
    expect(ten).toBeLessThanOrEqual(3);
    console.info(`cursor page statements: first 10 = ${ten}, first 100 = ${hundred}`);
  });

  it('REST takes first/after and adds endCursor/hasNextPage to meta.pagination, the rest of the body unchanged', async () => {
    const one = await t.request('/api/catalog/entities?first=5', { apiKey: admin });
    expect(one.status, one.text).toBe(200);
    expect(Object.keys(one.body)).toEqual(['data', 'meta']);
    expect(Object.keys(one.body.meta.pagination).sort()).toEqual(['endCursor', 'hasNextPage', 'limit', 'page', 'total', 'totalPages']);
    expect(one.body.data).toHaveLength(5);
    expect(one.body.meta.pagination).toMatchObject({ page: 1, limit: 5, hasNextPage: true });
    const two = await t.request(`/api/catalog/entities?first=5&after=${encodeURIComponent(one.body.meta.pagination.endCursor)}`, { apiKey: admin });
    expect(two.status, two.text).toBe(200);
    const offset = await t.request('/api/catalog/entities?page=2&limit=5', { apiKey: admin });
    expect(two.body.data.map((d: any) => d.id)).toEqual(offset.body.data.map((d: any) => d.id));
    // Offset pages carry the cursor of their last row too, to switch to cursors mid-list.
    expect(offset.body.meta.pagination.endCursor).toBe(two.body.meta.pagination.endCursor);
    expect(offset.body.meta.pagination.hasNextPage).toBe(true);
  });

  it('refuses an altered cursor, another list’s, another sort order’s and another organization’s with 422 naming after', async () => {
    const page = await t.request('/api/catalog/entities?first=2', { apiKey: admin });
    const cursor: string = page.body.meta.pagination.endCursor;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const altered = Buffer.from(JSON.stringify([decoded[0].map((v: unknown) => (typeof v === 'string' && v.includes('T') ? '2000-01-01T00:00:00.000Z' : v)), decoded[1]])).toString(
      'base64url',
    );
    const brands = await t.request('/api/catalog/brands?first=1', { apiKey: admin });
    await t.request('/api/catalog/brands', { apiKey: admin, body: { name: 'B', slug: `b-${Date.now()}` } });
    const brandCursor = (await t.request('/api/catalog/brands?first=1', { apiKey: admin })).body.meta.pagination.endCursor ?? brands.body.meta.pagination.endCursor;
    const other = await t.app.db.organization.create({ data: { slug: `cursor-other-${Date.now()}`, name: 'Other' } });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    await createEntity(t, otherKey, {});
    await createEntity(t, otherKey, {});
    const otherCursor = (await t.request('/api/catalog/entities?first=1', { apiKey: otherKey })).body.meta.pagination.endCursor;
    const cases: Array<[string, string, string]> = [
      ['garbage', 'not-a-cursor', ''],
      ['altered', altered, ''],
      ['another list', brandCursor, ''],
      ['another sort order', cursor, '&sort=slug:asc'],
      ['another organization', otherCursor, ''],
    ];
    for (const [what, value, extra] of cases) {
      const res = await t.request(`/api/catalog/entities?first=2&after=${encodeURIComponent(value)}${extra}`, { apiKey: admin });
      expect(res.status, `${what}: ${res.text}`).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(
        res.body.error.details.map((d: any) => d.field),
        what,
      ).toContain('after');
    }
    const gql = await t.graphql(`{ catalogEntities(first: 2, after: "${altered}") { totalCount } }`, {}, { apiKey: admin });
    expect(gql.body.errors![0].extensions.code).toBe('VALIDATION_FAILED');
    expect(gql.body.errors![0].extensions.details.map((d: any) => d.field)).toContain('after');
    // The untouched cursor still works.
    expect((await t.request(`/api/catalog/entities?first=2&after=${encodeURIComponent(cursor)}`, { apiKey: admin })).status).toBe(200);
  });

  it('refuses contradictory arguments with 422 naming them', async () => {
    const cursor = (await t.request('/api/catalog/entities?first=1', { apiKey: admin })).body.meta.pagination.endCursor;
    const cases: Array<[string, string]> = [
      [`page=2&after=${encodeURIComponent(cursor)}`, 'page'],
      ['first=2&last=2', 'last'],
      [`after=${encodeURIComponent(cursor)}&before=${encodeURIComponent(cursor)}`, 'before'],
      ['first=0', 'first'],
    ];
    for (const [query, field] of cases) {
      const res = await t.request(`/api/catalog/entities?${query}`, { apiKey: admin });
      expect(res.status, `${query}: ${res.text}`).toBe(422);
      expect(res.body.error.details.map((d: any) => d.field)).toContain(field);
    }
  });

  it('every list query without required arguments answers edges, pageInfo and totalCount', async () => {
    const schema = await t.graphql(`{ __schema { queryType { fields { name args { name type { kind } } type { kind name ofType { name } } } } } }`, {}, { apiKey: admin });
    const lists = schema.body.data.__schema.queryType.fields.filter(
      (f: any) =>
        (f.type.ofType?.name ?? f.type.name ?? '').endsWith('Page') &&
        f.args.some((a: any) => a.name === 'after') &&
        !f.name.startsWith('me') &&
        !f.args.some((a: any) => a.type.kind === 'NON_NULL'),
    );
    // /me lists answer a customer's session only (they share the orders list and its cursors).
    expect(lists.length).toBeGreaterThanOrEqual(15);
    for (const list of lists) {
      const res = await t.graphql(`{ ${list.name}(first: 1) { totalCount pageInfo { hasNextPage endCursor } edges { cursor } } }`, {}, { apiKey: admin });
      expect(res.body.errors, `${list.name}: ${JSON.stringify(res.body.errors)}`).toBeUndefined();
      const page = res.body.data[list.name];
      if (page.totalCount > 1) {
        expect(page.pageInfo.hasNextPage, list.name).toBe(true);
        const next = await t.graphql(`query($after: String) { ${list.name}(first: 1, after: $after) { edges { cursor } } }`, { after: page.pageInfo.endCursor }, { apiKey: admin });
        expect(next.body.errors, `${list.name}: ${JSON.stringify(next.body.errors)}`).toBeUndefined();
        expect(next.body.data[list.name].edges[0].cursor).not.toBe(page.pageInfo.endCursor);
      }
    }
  });
});
