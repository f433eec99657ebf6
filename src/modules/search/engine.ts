// The search adapter seam. A search engine answers `search` and `suggest` for one organization;
// `index` and `remove` keep an external engine in step with the catalog. PostgreSQL (postgres.ts)
// is the built-in engine: its documents are maintained by database triggers in the writing
// transaction, so its index/remove have nothing to do. Meilisearch (meilisearch.ts) is the
// external one, chosen by `search.engine`; jobs fed from the outbox call index/remove (sync.ts).
import type { CatalogCtx } from '../catalog/index.js';

/** Built-in facet names; any other facet name is a filterable custom field. */
export const BUILTIN_FACETS = ['type', 'category', 'brand', 'status'] as const;
export type BuiltinFacet = (typeof BUILTIN_FACETS)[number];

export interface SearchQuery {
  /** Web-search syntax: quotes, -word, or; the last plain word matches as a prefix. */
  q?: string;
  locale: string;
  type?: string;
  /** Resolved category/brand ids (a slug that names nothing resolves to no id: no hits). */
  categoryId?: string | null;
  brandId?: string | null;
  status?: string;
  /** Statuses the caller may see at all (facets never count others). */
  visibleStatuses: readonly string[] | 'all';
  /** Attribute filters: values of one name ORed, names ANDed. */
  attrs: Map<string, string[]>;
  facets: { builtin: BuiltinFacet[]; attrs: string[] };
  offset: number;
  limit: number;
}

export interface FacetValue {
  value: string;
  /** Display name where the value is a handle (category and brand names). */
  label: string | null;
  count: number;
}

export interface SearchOutcome {
  entityIds: string[];
  total: number;
  facets: Map<string, FacetValue[]>;
}

export interface SuggestQuery {
  prefix: string;
  locale: string;
  type?: string;
  limit: number;
}

export interface Suggestion {
  text: string;
  kind: 'title' | 'sku';
  entityId: string;
  slug: string;
}

export interface SearchEngine {
  readonly name: string;
  search(ctx: CatalogCtx, query: SearchQuery): Promise<SearchOutcome>;
  suggest(ctx: CatalogCtx, query: SuggestQuery): Promise<Suggestion[]>;
  /** Brings the engine's copy of these entities up to date (no-op where the database is the engine). */
  index(ctx: CatalogCtx, entityIds: string[]): Promise<void>;
  remove(ctx: CatalogCtx, entityIds: string[]): Promise<void>;
  /** After a full rebuild that began at `before`: drops the organization's copies not pushed since (entities gone meanwhile). */
  removeStale?(ctx: CatalogCtx, before: Date): Promise<void>;
}
