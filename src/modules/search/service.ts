// Search and suggest: validates the request against the organization's filterable fields,
// applies the catalog's visibility rules, asks the configured engine, and returns catalog
// entities in the engine's order (with the usual `include` embeds).
import { forbidden, validationFailed, type FieldIssue } from '../../errors.js';
import { hasPermission } from '../../auth/permissions.js';
import { PERMISSION, UUID_RE } from '../catalog/shared.js';
import { withIncludes, parseInclude } from '../catalog/include.js';
import type { CatalogCtx, CatalogEntityView } from '../catalog/index.js';
import { BUILTIN_FACETS, type BuiltinFacet, type FacetValue, type SearchEngine, type Suggestion } from './engine.js';
import { postgresSearchEngine } from './postgres.js';
import { meilisearchEngine } from './meilisearch.js';
import type { Config } from '../../config/index.js';

/** `attr.<name>` names: the contract's rule. */
export const ATTR_NAME_RE = /^[A-Za-z0-9_-]+$/;
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;
export const SUGGEST_DEFAULT_LIMIT = 10;
export const SUGGEST_MAX_LIMIT = 100;

const engines = new WeakMap<Config, SearchEngine>();

/** The configured engine of this process (search.engine): PostgreSQL unless Meilisearch is configured. */
export function searchEngineFor(config: Config): SearchEngine {
  if (config.search.engine === 'postgres') return postgresSearchEngine;
  let engine = engines.get(config);
  if (!engine) {
    engine = meilisearchEngine(config);
    engines.set(config, engine);
  }
  return engine;
}

type SearchCtx = CatalogCtx & { config: Config };

export interface SearchInput {
  q?: string;
  locale: string;
  type?: string;
  category?: string;
  brand?: string;
  status?: string;
  attr?: string[];
  facets?: string;
  page: number;
  limit: number;
  include?: string;
}

export interface SearchFacet {
  name: string;
  values: FacetValue[];
}

export interface SearchResult {
  data: CatalogEntityView[];
  meta: { total: number; page: number; limit: number; totalPages: number; facets: Record<string, FacetValue[]> };
  facetList: SearchFacet[];
}

/** `name=value` items (REST: attr.<name>=value) grouped by name; bad names are 422 naming the parameter. */
function parseAttrs(items: string[] | undefined, issues: FieldIssue[]): Map<string, string[]> {
  const attrs = new Map<string, string[]>();
  for (const item of items ?? []) {
    const at = item.indexOf('=');
    if (at <= 0) {
      issues.push({ field: 'attr', message: `"${item}" must be name=value (REST: attr.<name>=value)` });
      continue;
    }
    const name = item.slice(0, at);
    const value = item.slice(at + 1);
    if (!ATTR_NAME_RE.test(name)) {
      issues.push({ field: `attr.${name}`, message: 'attribute name must match ^[A-Za-z0-9_-]+$' });
      continue;
    }
    const values = attrs.get(name) ?? [];
    if (!values.includes(value)) values.push(value);
    attrs.set(name, values);
  }
  return attrs;
}

async function resolveMember(ctx: CatalogCtx, table: 'category' | 'brand', value: string | undefined): Promise<string | null | undefined> {
  if (!value) return undefined;
  if (UUID_RE.test(value)) return value.toLowerCase();
  const where = { organizationId: ctx.organization.id, slug: value };
  const row = table === 'category' ? await ctx.db.catalogCategory.findFirst({ where, select: { id: true } }) : await ctx.db.catalogBrand.findFirst({ where, select: { id: true } });
  return row?.id ?? null;
}

export async function search(ctx: SearchCtx, input: SearchInput): Promise<SearchResult> {
  const issues: FieldIssue[] = [];
  const attrs = parseAttrs(input.attr, issues);
  const facetNames = [
    ...new Set(
      (input.facets ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  for (const name of facetNames) {
    if (!BUILTIN_FACETS.includes(name as BuiltinFacet) && !ATTR_NAME_RE.test(name)) issues.push({ field: 'facets', message: `facet name "${name}" must match ^[A-Za-z0-9_-]+$` });
  }
  if (issues.length) throw validationFailed(issues);

  const seesUnpublished = hasPermission(ctx.actor?.permissions ?? [], PERMISSION.readUnpublished);
  if (input.status && input.status !== 'active' && !seesUnpublished) {
    throw forbidden(`Insufficient permissions: searching ${input.status} entities needs ${PERMISSION.readUnpublished}`);
  }

  const attrFacets = facetNames.filter((name) => !BUILTIN_FACETS.includes(name as BuiltinFacet));
  const [definitions, categoryId, brandId] = await Promise.all([
    attrs.size || attrFacets.length
      ? ctx.db.catalogFieldDefinition.findMany({
          where: { organizationId: ctx.organization.id, filterable: true, archivedAt: null, ...(input.type ? { entityType: input.type } : {}) },
          select: { name: true },
        })
      : Promise.resolve([]),
    resolveMember(ctx, 'category', input.category),
    resolveMember(ctx, 'brand', input.brand),
  ]);
  const filterable = new Set(definitions.map((d) => d.name));
  const listed = () => (filterable.size ? [...filterable].sort().join(', ') : 'none');
  for (const name of attrs.keys()) {
    if (!filterable.has(name)) issues.push({ field: `attr.${name}`, message: `not a filterable field; filterable: ${listed()}` });
  }
  for (const name of attrFacets) {
    if (!filterable.has(name)) issues.push({ field: 'facets', message: `"${name}" is not a facet; facets: ${[...BUILTIN_FACETS, ...[...filterable].sort()].join(', ')}` });
  }
  if (issues.length) throw validationFailed(issues);
  const include = parseInclude(input.include);

  const outcome = await searchEngineFor(ctx.config).search(ctx, {
    q: input.q,
    locale: input.locale,
    type: input.type,
    categoryId,
    brandId,
    // Without an explicit status a search shows what shoppers see: active entities.
    status: input.status ?? 'active',
    visibleStatuses: seesUnpublished ? 'all' : ['active'],
    attrs,
    facets: { builtin: facetNames.filter((n): n is BuiltinFacet => BUILTIN_FACETS.includes(n as BuiltinFacet)), attrs: attrFacets },
    offset: (input.page - 1) * input.limit,
    limit: input.limit,
  });

  const rows = outcome.entityIds.length ? await ctx.db.catalogEntity.findMany({ where: { organizationId: ctx.organization.id, id: { in: outcome.entityIds } } }) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = outcome.entityIds.map((id) => byId.get(id)).filter((row) => row !== undefined);
  const facets = Object.fromEntries(outcome.facets);
  return {
    data: await withIncludes(ctx, ordered, include),
    meta: { total: outcome.total, page: input.page, limit: input.limit, totalPages: Math.ceil(outcome.total / input.limit), facets },
    // in the order the caller asked for them
    facetList: facetNames.map((name) => ({ name, values: outcome.facets.get(name) ?? [] })),
  };
}

export interface SuggestInput {
  prefix: string;
  locale: string;
  type?: string;
  limit: number;
}

export async function suggest(ctx: SearchCtx, input: SuggestInput): Promise<Suggestion[]> {
  if (!input.prefix.trim()) return [];
  return searchEngineFor(ctx.config).suggest(ctx, { prefix: input.prefix, locale: input.locale, type: input.type, limit: input.limit });
}
