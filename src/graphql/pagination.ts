// Offset pagination as the REST contract shapes it: `{ data, meta: { pagination } }`. A list
// operation declares `paginated: true` and `output: pageOf('Widget', WidgetRef)`; its handler
// returns `toPage(items, total, input)`. The same object is the GraphQL field's value, so
// GraphQL and REST lists have one shape.
import { builder } from './builder.js';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

export interface Page<T> {
  data: T[];
  meta: { pagination: Pagination };
}

export function toPage<T>(items: T[], total: number, input: { page: number; limit: number }): Page<T> {
  return { data: items, meta: { pagination: { page: input.page, limit: input.limit, total, totalPages: Math.ceil(total / input.limit) } } };
}

/** `skip`/`take` for Prisma from page input. */
export function pageWindow(input: { page: number; limit: number }): { skip: number; take: number } {
  return { skip: (input.page - 1) * input.limit, take: input.limit };
}

export const PaginationRef = builder.objectRef<Pagination>('Pagination').implement({
  description: 'Where a page sits in the whole list.',
  fields: (t) => ({
    page: t.exposeInt('page', { description: 'This page, from 1' }),
    limit: t.exposeInt('limit', { description: 'Page size' }),
    total: t.exposeInt('total', { description: 'Items in the whole list' }),
    totalPages: t.exposeInt('totalPages', { description: 'Pages in the whole list' }),
  }),
});

export const PageMetaRef = builder.objectRef<{ pagination: Pagination }>('PageMeta').implement({
  fields: (t) => ({ pagination: t.field({ type: PaginationRef, resolve: (meta) => meta.pagination }) }),
});

const pageTypes = new Map<string, unknown>();

/** The `<Name>Page` type for an item type (created once per name). */
export function pageOf<T>(name: string, item: unknown) {
  const existing = pageTypes.get(name);
  if (existing) return existing as ReturnType<typeof builder.objectRef<Page<T>>>;
  const ref = builder.objectRef<Page<T>>(`${name}Page`).implement({
    description: `A page of ${name} items with pagination metadata.`,
    fields: (t) => ({
      data: t.field({ type: [item as never], resolve: (page) => page.data as never }),
      meta: t.field({ type: PageMetaRef, resolve: (page) => page.meta }),
    }),
  });
  pageTypes.set(name, ref);
  return ref;
}
