// Pagination, in one place for every list. Two ways through the same list:
//
// - Offset pages, as the REST contract shapes them: `page`/`limit` → `{ data, meta: { pagination } }`.
// - Relay-style cursors for infinite scroll: `first`/`after` (and `last`/`before`) → the same page,
//   plus, in GraphQL, `edges { cursor node }`, `pageInfo` and `totalCount` (what Relay's
//   `@connection` and Apollo's `relayStylePagination` read). REST takes the same `first`/`after`
//   query parameters and finds the next cursor in `meta.pagination.endCursor`/`hasNextPage`.
//
// Cursors are keyset positions, not offsets: a cursor holds the sort key values and the id of
// the row it stands for, and the next page is "rows after that position in the list's order".
// Rows inserted while a client scrolls therefore never shift the pages it has not read yet
// (an offset would repeat or skip rows). A cursor is opaque base64url text carrying an HMAC over
// the list, its sort order, the organization and the position (key derived from the auth
// secret), so an altered cursor or one from another list, sort order or organization is a 422
// naming the argument, never a silent jump.
//
// A list operation declares `...pageInput(default, max)` in its input and `output: pageOf(...)`;
// its service calls `paginate(ctx, input, { list, model, where, orderBy, findMany, count, view })`.
// The statements are the same in both modes: one page query and one count, whatever the size.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import type { Config } from '../config/index.js';
import { resolveAuthSecret } from '../auth/secret.js';
import { validationFailed } from '../errors.js';
import * as prismaEnums from '../generated/prisma/enums.js';
import { getDatamodel } from '../generated/pothos-prisma-types.js';
import { builder } from './builder.js';
import { graphOnly } from './loaders.js';
import { declarePageArgument } from './cost.js';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  /** Whether rows follow this page (in cursor mode: after its last row). */
  hasNextPage: boolean;
  /** The cursor of this page's last row, for `after` (null on an empty page). */
  endCursor: string | null;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Page<T> {
  data: T[];
  meta: { pagination: Pagination };
  /** The cursor of each row of `data`, same order (GraphQL edges). */
  cursors?: string[];
  pageInfo?: PageInfo;
}

/** What every list's input carries (see pageInput). */
export interface PageInput {
  page: number;
  limit: number;
  first?: number;
  after?: string;
  last?: number;
  before?: string;
}

/**
 * Page and limit as every list takes them: page from 1, limit *capped* at `maxLimit` (the spec's
 * "capped": limit=1000 answers `maxLimit` items and says so in meta.pagination.limit, it is not
 * refused). `overwrite` clamps without turning the schema into a pipe, so the GraphQL argument
 * stays Int and the OpenAPI document stays a plain integer. Zero, negative or non-numeric: 422.
 * `first`/`after`/`last`/`before` are the cursor arguments (capped like limit).
 */
export function pageInput(defaultLimit = 20, maxLimit = 100) {
  const size = (what: string) =>
    z
      .number()
      .int()
      .min(1)
      .overwrite((value) => Math.min(value, maxLimit))
      .optional()
      .describe(`${what}; values above ${maxLimit} are clamped to ${maxLimit}. Cursor mode: replaces limit`);
  const cursor = (what: string) => z.string().min(1).max(CURSOR_MAX_LENGTH).optional().describe(what);
  return {
    page: z.number().int().min(1).default(1).describe('Page number, from 1 (offset mode; must stay 1 with a cursor)'),
    // Declared for the cost of the operation (graphql/cost.ts): its page holds at most maxLimit.
    limit: declarePageArgument(
      z
        .number()
        .int()
        .min(1)
        .overwrite((value) => Math.min(value, maxLimit))
        .default(defaultLimit)
        .describe(`Page size, default ${defaultLimit}; values above ${maxLimit} are clamped to ${maxLimit} (meta.pagination.limit shows the applied value)`),
      defaultLimit,
      maxLimit,
    ),
    first: size('Cursor mode: at most this many rows after `after` (or from the start)'),
    after: cursor('Cursor mode: rows after this cursor (an `endCursor` or edge `cursor` of this same list and sort order)'),
    last: size('Cursor mode: at most this many rows before `before` (or up to the end)'),
    before: cursor('Cursor mode: rows before this cursor (a `startCursor` or edge `cursor` of this same list and sort order)'),
  };
}

const CURSOR_MAX_LENGTH = 1000;

export function toPage<T>(items: T[], total: number, input: { page: number; limit: number }): Page<T> {
  const hasNextPage = (input.page - 1) * input.limit + items.length < total;
  return {
    data: items,
    meta: { pagination: { page: input.page, limit: input.limit, total, totalPages: Math.ceil(total / input.limit), hasNextPage, endCursor: null } },
    cursors: [],
    pageInfo: { hasNextPage, hasPreviousPage: input.page > 1, startCursor: null, endCursor: null },
  };
}

/** `skip`/`take` for Prisma from page input. */
export function pageWindow(input: { page: number; limit: number }): { skip: number; take: number } {
  return { skip: (input.page - 1) * input.limit, take: input.limit };
}

// ── cursors ──

type Direction = 'asc' | 'desc';
/** One element of a Prisma `orderBy` array: `{ field: 'asc' }` or `{ field: { sort, nulls } }`. */
type OrderByItem = Record<string, Direction | { sort: Direction; nulls?: 'first' | 'last' }>;

interface SortKey {
  field: string;
  desc: boolean;
  /** Where NULLs sort: PostgreSQL's default is first for desc, last for asc. */
  nullsFirst: boolean;
  nullable: boolean;
  /** DateTime, String, Int, Boolean, or an enum type name. */
  type: string;
  /** Closed sets compared by position (enums in declaration order, false before true). */
  ordered?: readonly (string | boolean)[];
}

export type CursorValue = string | number | boolean | null;

const datamodel = getDatamodel().datamodel.models as unknown as Record<string, { fields: Array<{ name: string; type: string; kind: string; isRequired: boolean }> }>;
const enums = prismaEnums as unknown as Record<string, Record<string, string> | undefined>;

function sortKeys(model: string, orderBy: readonly OrderByItem[]): SortKey[] {
  const fields = datamodel[model]?.fields;
  if (!fields) throw new Error(`paginate: unknown model ${model}`);
  return orderBy.map((item) => {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const [field, spec] = Object.entries(item)[0]!;
    const meta = fields.find((f) => f.name === field);
    if (!meta || meta.kind === 'object') throw new Error(`paginate: ${model}.${field} is not a scalar column`);
    const direction = typeof spec === 'string' ? spec : spec.sort;
    const nulls = typeof spec === 'string' ? undefined : spec.nulls;
    const desc = direction === 'desc';
    const ordered = meta.kind === 'enum' ? Object.values(enums[meta.type] ?? {}) : meta.type === 'Boolean' ? [false, true] : undefined;
    return { field, desc, nullsFirst: nulls ? nulls === 'first' : desc, nullable: !meta.isRequired, type: meta.type, ordered };
  });
}

const cursorKeys = new WeakMap<Config, Buffer>();

function cursorKey(config: Config): Buffer {
  let key = cursorKeys.get(config);
  if (!key) {
    key = createHmac('sha256', resolveAuthSecret(config)).update('commerce list cursor v1').digest();
    cursorKeys.set(config, key);
  }
  return key;
}

export interface CursorScope {
  config: Config;
  organizationId: string;
  /** The list and its sort order, e.g. `orders:placedAt.desc,id.desc`. */
  list: string;
}

function mac(scope: CursorScope, values: readonly CursorValue[]): Buffer {
  return createHmac('sha256', cursorKey(scope.config))
    .update(JSON.stringify([scope.organizationId, scope.list, values]))
    .digest()
    .subarray(0, 16);
}

/** An opaque cursor for a position (sort key values then id) in one list of one organization. */
export function encodeCursor(scope: CursorScope, values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify([values, mac(scope, values).toString('base64url')])).toString('base64url');
}

/** The position a cursor holds, or a 422 naming `field` when it is not one of this list's. */
export function decodeCursor(scope: CursorScope, cursor: string, field: string): CursorValue[] {
  const refuse = () =>
    validationFailed([{ field, message: 'is not a cursor of this list: use an endCursor, startCursor or edge cursor returned by this same list, sort order and organization' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || !Array.isArray(parsed[0]) || typeof parsed[1] !== 'string') throw refuse();
  const values = parsed[0] as CursorValue[];
  if (!values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) throw refuse();
  const expected = mac(scope, values);
  const given = Buffer.from(parsed[1], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
  return values;
}

function cursorValue(value: unknown): CursorValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value as CursorValue;
}

/** The typed value Prisma compares with, from a (verified) cursor value. */
function columnValue(key: SortKey, value: CursorValue): unknown {
  if (value === null) return null;
  if (key.type === 'DateTime') return new Date(value as string);
  if (key.type === 'BigInt') return BigInt(value as string);
  return value;
}

const NOTHING = { OR: [] };

/** Rows strictly after `value` in this key's order. */
function strictlyAfter(key: SortKey, value: unknown): Record<string, unknown> {
  if (value === null) return key.nullable && key.nullsFirst ? { [key.field]: { not: null } } : NOTHING;
  let comparison: Record<string, unknown>;
  if (key.ordered) {
    const index = key.ordered.indexOf(value as string | boolean);
    const later = key.desc ? key.ordered.slice(0, index) : key.ordered.slice(index + 1);
    comparison = { OR: later.map((v) => ({ [key.field]: v })) };
  } else {
    comparison = { [key.field]: { [key.desc ? 'lt' : 'gt']: value } };
  }
  return key.nullable && !key.nullsFirst ? { OR: [comparison, { [key.field]: null }] } : comparison;
}

/** The Prisma filter for "after this position": the keyset (k1, k2, ..., id) > (v1, v2, ..., id). */
function keysetAfter(keys: readonly SortKey[], values: readonly unknown[], index = 0): Record<string, unknown> {
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const key = keys[index]!;
  const after = strictlyAfter(key, values[index]);
  if (index === keys.length - 1) return after;
  return { OR: [after, { AND: [{ [key.field]: values[index] }, keysetAfter(keys, values, index + 1)] }] };
}

function reversed(keys: readonly SortKey[]): SortKey[] {
  return keys.map((key) => ({ ...key, desc: !key.desc, nullsFirst: !key.nullsFirst }));
}

function prismaOrderBy(keys: readonly SortKey[]): OrderByItem[] {
  return keys.map((key) => {
    const sort: Direction = key.desc ? 'desc' : 'asc';
    return { [key.field]: key.nullable ? { sort, nulls: key.nullsFirst ? 'first' : 'last' } : sort };
  });
}

/** Whether the caller asked for cursor mode, and which way; 422 for contradictory arguments. */
function cursorRequest(input: PageInput): { backward: boolean; size: number; cursor?: string; field: 'after' | 'before' } | null {
  const { first, after, last, before } = input;
  if (first === undefined && after === undefined && last === undefined && before === undefined) return null;
  const issues = [];
  if (input.page !== 1) issues.push({ field: 'page', message: 'must be 1 (or absent) with first, after, last or before: cursors replace pages' });
  if (after !== undefined && before !== undefined) issues.push({ field: 'before', message: 'cannot be combined with after' });
  if (first !== undefined && last !== undefined) issues.push({ field: 'last', message: 'cannot be combined with first' });
  if (first !== undefined && before !== undefined) issues.push({ field: 'first', message: 'pages after a cursor: use last with before' });
  if (last !== undefined && after !== undefined) issues.push({ field: 'last', message: 'pages before a cursor: use first with after' });
  if (issues.length) throw validationFailed(issues);
  const backward = last !== undefined || before !== undefined;
  return backward ? { backward, size: last ?? input.limit, cursor: before, field: 'before' } : { backward, size: first ?? input.limit, cursor: after, field: 'after' };
}

export type ListCtx = Pick<RequestContext, 'organization' | 'config'>;

export interface ListSpec<Row, View, Where, Order extends object> {
  /** The list's name in its cursors (a cursor of another list is refused). */
  list: string;
  /** The Prisma model listed: its columns' types and nullability shape the keyset. */
  model: string;
  where: Where;
  /** The list's order, ending with a unique column (id) so positions are total. */
  orderBy: Order[];
  findMany: (args: { where: Where; orderBy: Order[]; skip: number; take: number }) => Promise<Row[]>;
  count: (where: Where) => Promise<number>;
  /**
   * Optional: an offset page and the list's size read together (one raw statement instead of
   * findMany and count), for lists read on every storefront page. Same `where` and `orderBy`
   * as the Prisma reads, which cursor pages still use.
   */
  page?: (window: { skip: number; take: number }) => Promise<{ rows: Row[]; total: number }>;
  view: (rows: Row[]) => View[] | Promise<View[]>;
}

/**
 * One page of a list, by offset (`page`/`limit`) or by cursor (`first`/`after`, `last`/`before`):
 * one page query and one count either way. Each row's cursor is returned beside it.
 */
export async function paginate<Row, View, Where, Order extends object>(ctx: ListCtx, input: PageInput, spec: ListSpec<Row, View, Where, Order>): Promise<Page<View>> {
  const keys = sortKeys(spec.model, spec.orderBy as unknown as OrderByItem[]);
  const scope: CursorScope = {
    config: ctx.config,
    organizationId: ctx.organization.id,
    list: `${spec.list}:${keys.map((k) => `${k.field}.${k.desc ? 'desc' : 'asc'}`).join(',')}`,
  };
  const cursorOf = (row: Row) =>
    encodeCursor(
      scope,
      keys.map((k) => cursorValue((row as Record<string, unknown>)[k.field])),
    );
  const request = cursorRequest(input);

  if (!request) {
    if (spec.page) {
      const { rows, total } = await spec.page(pageWindow(input));
      return offsetPage(rows, total, input, spec.view, cursorOf);
    }
    const [rows, total] = await Promise.all([spec.findMany({ where: spec.where, orderBy: spec.orderBy, ...pageWindow(input) }), spec.count(spec.where)]);
    return offsetPage(rows, total, input, spec.view, cursorOf);
  }

  const order = request.backward ? reversed(keys) : keys;
  let where = spec.where;
  if (request.cursor !== undefined) {
    const position = decodeCursor(scope, request.cursor, request.field);
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    if (position.length !== keys.length || !position.every((v, i) => valueFits(keys[i]!, v))) {
      throw validationFailed([{ field: request.field, message: 'is not a cursor of this list' }]);
    }
    where = {
      AND: [
        spec.where,
        keysetAfter(
          order,
          // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
          position.map((v, i) => columnValue(keys[i]!, v)),
        ),
      ],
    } as Where;
  }
  const [fetched, total] = await Promise.all([
    spec.findMany({ where, orderBy: prismaOrderBy(order) as unknown as Order[], skip: 0, take: request.size + 1 }),
    spec.count(spec.where),
  ]);
  return cursorPage(fetched, total, request, spec.view, cursorOf);
}

/** An offset page of `rows` (one page of `total`), with the cursors of its first and last row. */
async function offsetPage<Row, View>(
  rows: Row[],
  total: number,
  input: PageInput,
  view: (rows: Row[]) => View[] | Promise<View[]>,
  cursorOf: (row: Row) => string,
): Promise<Page<View>> {
  const page = toPage(await view(rows), total, input);
  // Offset pages: only GraphQL's edges need every row's cursor (an HMAC each), so they are
  // signed when first read; REST reads the first and last only.
  let cursors: string[] | undefined;
  Object.defineProperty(page, 'cursors', { enumerable: true, configurable: true, get: () => (cursors ??= rows.map(cursorOf)), set: (value: string[]) => (cursors = value) });
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const endCursor = rows.length ? cursorOf(rows[rows.length - 1]!) : null;
  page.meta.pagination.endCursor = endCursor;
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  page.pageInfo = { ...page.pageInfo!, startCursor: rows.length ? (rows.length === 1 ? endCursor : cursorOf(rows[0]!)) : null, endCursor };
  return page;
}

/** A cursor page from `fetched` (up to one row more than the page, to tell whether more follow). */
async function cursorPage<Row, View>(
  fetched: Row[],
  total: number,
  request: NonNullable<ReturnType<typeof cursorRequest>>,
  view: (rows: Row[]) => View[] | Promise<View[]>,
  cursorOf: (row: Row) => string,
): Promise<Page<View>> {
  const more = fetched.length > request.size;
  const rows = fetched.slice(0, request.size);
  if (request.backward) rows.reverse();
  const cursors = rows.map(cursorOf);
  const endCursor = cursors.at(-1) ?? null;
  // Forward: more rows follow when the extra one came back; rows precede when we started after a
  // cursor. Backward: the mirror image.
  const hasNextPage = request.backward ? request.cursor !== undefined : more;
  const hasPreviousPage = request.backward ? more : request.cursor !== undefined;
  return {
    data: await view(rows),
    meta: { pagination: { page: 1, limit: request.size, total, totalPages: Math.ceil(total / request.size), hasNextPage, endCursor } },
    cursors,
    pageInfo: { hasNextPage, hasPreviousPage, startCursor: cursors[0] ?? null, endCursor },
  };
}

/**
 * The same two modes for a list read with raw SQL (a filter Prisma cannot express), ordered by
 * columns that are all ascending and never null: the caller turns `after` into a row-value
 * comparison `(a, b, c) > (...)` (`<` and descending order when `backward`).
 */
export async function paginateRows<Row, View>(
  ctx: ListCtx,
  input: PageInput,
  spec: {
    list: string;
    key: (row: Row) => CursorValue[];
    keyLength: number;
    fetch: (window: { after?: CursorValue[]; backward: boolean; skip: number; take: number }) => Promise<{ rows: Row[]; total: number }>;
    view: (rows: Row[]) => View[] | Promise<View[]>;
  },
): Promise<Page<View>> {
  const scope: CursorScope = { config: ctx.config, organizationId: ctx.organization.id, list: spec.list };
  const cursorOf = (row: Row) => encodeCursor(scope, spec.key(row));
  const request = cursorRequest(input);
  if (!request) {
    const { rows, total } = await spec.fetch({ backward: false, ...pageWindow(input) });
    return offsetPage(rows, total, input, spec.view, cursorOf);
  }
  let after: CursorValue[] | undefined;
  if (request.cursor !== undefined) {
    after = decodeCursor(scope, request.cursor, request.field);
    if (after.length !== spec.keyLength || !after.every((v) => typeof v === 'string')) throw validationFailed([{ field: request.field, message: 'is not a cursor of this list' }]);
  }
  const { rows: fetched, total } = await spec.fetch({ after, backward: request.backward, skip: 0, take: request.size + 1 });
  return cursorPage(fetched, total, request, spec.view, cursorOf);
}

/** A verified cursor value still has to fit its column (a cursor minted before a schema change). */
function valueFits(key: SortKey, value: CursorValue): boolean {
  if (value === null) return key.nullable;
  if (key.ordered) return key.ordered.includes(value as string | boolean);
  if (key.type === 'DateTime') return typeof value === 'string' && !Number.isNaN(Date.parse(value));
  if (key.type === 'Int' || key.type === 'Float') return typeof value === 'number';
  return typeof value === 'string';
}

// ── GraphQL types ──

export const PaginationRef = builder.objectRef<Pagination>('Pagination').implement({
  description: 'Where a page sits in the whole list.',
  fields: (t) => ({
    page: t.exposeInt('page', { description: 'This page, from 1 (1 in cursor mode)' }),
    limit: t.exposeInt('limit', { description: 'Page size as applied (after clamping; first or last in cursor mode)' }),
    total: t.exposeInt('total', { description: 'Items in the whole list' }),
    totalPages: t.exposeInt('totalPages', { description: 'Pages of this size in the whole list' }),
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'Whether items follow this page: pass endCursor as `after` to read them' }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: "The cursor of this page's last item (null when the page is empty)" }),
  }),
});

export const PageMetaRef = builder.objectRef<{ pagination: Pagination }>('PageMeta').implement({
  description: 'Metadata of a list page.',
  fields: (t) => ({ pagination: t.expose('pagination', { type: PaginationRef, description: 'Position of this page in the list' }) }),
});

export const PageInfoRef = builder.objectRef<PageInfo>('PageInfo').implement({
  description: 'Relay connection page info: where this page sits, and the cursors to move from it.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'Whether items follow this page (pass endCursor as `after`)' }),
    hasPreviousPage: t.exposeBoolean('hasPreviousPage', { description: 'Whether items precede this page (pass startCursor as `before`)' }),
    startCursor: t.exposeString('startCursor', { nullable: true, description: "The first item's cursor (null when the page is empty)" }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: "The last item's cursor (null when the page is empty)" }),
  }),
});

const pageTypes = new Map<string, unknown>();

/**
 * The `<Name>Page` type for an item type (created once per name): `data` and `meta` as REST has
 * them, and the Relay connection fields `edges`, `pageInfo` and `totalCount` (GraphQL only, so
 * REST bodies keep their shape).
 */
export function pageOf<T>(name: string, item: unknown) {
  const existing = pageTypes.get(name);
  if (existing) return existing as ReturnType<typeof builder.objectRef<Page<T>>>;
  const edge = builder.objectRef<{ cursor: string; node: T }>(`${name}Edge`).implement({
    description: `One ${name} of a page with its cursor.`,
    fields: (t) => ({
      cursor: t.exposeString('cursor', { description: 'Opaque position of this item: pass it as `after` or `before`' }),
      node: t.field({ type: item as never, description: `The ${name}`, resolve: (e) => e.node as never }),
    }),
  });
  const ref = builder.objectRef<Page<T>>(`${name}Page`).implement({
    description: `A page of ${name} items: \`data\` and \`meta\` (offset pagination, as REST has them), and the Relay connection fields \`edges\`, \`pageInfo\` and \`totalCount\`.`,
    fields: (t) => ({
      data: t.field({ type: [item as never], description: 'The items of this page, in list order', resolve: (page) => page.data as never }),
      meta: t.expose('meta', { type: PageMetaRef, description: 'Pagination metadata' }),
      edges: t.field({
        type: [edge],
        description: 'The items of this page with their cursors (Relay connection)',
        resolve: (page) => page.data.map((node, i) => ({ node, cursor: page.cursors?.[i] ?? '' })),
      }),
      pageInfo: t.field({
        type: PageInfoRef,
        description: 'Cursors and neighbours of this page (Relay connection)',
        resolve: (page) => page.pageInfo ?? { hasNextPage: page.meta.pagination.hasNextPage, hasPreviousPage: page.meta.pagination.page > 1, startCursor: null, endCursor: null },
      }),
      totalCount: t.int({ description: 'Items in the whole list (as meta.pagination.total)', resolve: (page) => page.meta.pagination.total }),
    }),
  });
  graphOnly(`${name}Page`, 'edges', 'pageInfo', 'totalCount');
  pageTypes.set(name, ref);
  return ref;
}
