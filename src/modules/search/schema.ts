// Search operations: `search` (GET /search) and `searchSuggestions` (GET /search/suggest).
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { CatalogEntityRef } from '../catalog/index.js';
import { DEFAULT_LOCALE, PERMISSION, entityTypeSchema, localeSchema } from '../catalog/shared.js';
import type { FacetValue, Suggestion } from './engine.js';
import './tasks.js';
import { defineEnum } from '../../graphql/enums.js';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SUGGEST_DEFAULT_LIMIT, SUGGEST_MAX_LIMIT, search, suggest, type SearchFacet, type SearchResult } from './service.js';

const SuggestionKindEnum = defineEnum('SearchSuggestionKind', ['title', 'sku'] as const, 'What a suggestion matched.');

const FacetValueRef = builder.objectRef<FacetValue>('SearchFacetValue').implement({
  description: 'One value of a facet with the number of hits that have it.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The value; for category and brand the slug (usable as the filter)' }),
    label: t.exposeString('label', { nullable: true, description: 'Display name (category and brand names)' }),
    count: t.exposeInt('count', { description: 'Hits with this value under every other filter' }),
  }),
});

const FacetRef = builder.objectRef<SearchFacet>('SearchFacet').implement({
  description: 'Counts of one facet over the whole filtered result (disjunctive: its own filter is left out).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'type, category, brand, status or an attribute name' }),
    values: t.expose('values', { type: [FacetValueRef] }),
  }),
});

const SearchMetaRef = builder.objectRef<SearchResult['meta']>('SearchMeta').implement({
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Hits in the whole result' }),
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit', { description: 'Applied page size (a larger request is clamped to 100)' }),
    totalPages: t.exposeInt('totalPages'),
    facets: t.field({
      type: 'JSONObject',
      description: 'Facet counts keyed by facet name, each a list of { value, label, count } (REST shape; GraphQL clients can use the typed `facets` field)',
      resolve: (meta) => meta.facets,
    }),
  }),
});

const SearchResultRef = builder.objectRef<SearchResult>('SearchResult').implement({
  description: 'Search hits (catalog entities, best first) with counts.',
  fields: (t) => ({
    data: t.expose('data', { type: [CatalogEntityRef] }),
    meta: t.expose('meta', { type: SearchMetaRef }),
    facets: t.field({ type: [FacetRef], description: 'The requested facets, typed', resolve: (r) => r.facetList }),
  }),
});

const SuggestionRef = builder.objectRef<Suggestion>('SearchSuggestion').implement({
  description: 'A completion: an entity title or a variant SKU.',
  fields: (t) => ({
    text: t.exposeString('text'),
    kind: t.expose('kind', { type: SuggestionKindEnum, description: 'title or sku' }),
    entityId: t.expose('entityId', { type: 'UUID' }),
    slug: t.exposeString('slug', { description: 'Slug of the entity, for a product link' }),
  }),
});

const locale = localeSchema.default(DEFAULT_LOCALE).describe('Locale searched (its titles and texts), default en');
// REST only (rest.queryOnly): over GraphQL the selection is the include.
const include = z.string().max(500).optional().describe('Embeds of each hit, as on GET /catalog/entities (attributes, variants, media, ...)');

defineOperation({
  name: 'search',
  kind: 'query',
  summary: 'Full-text search over the catalog',
  description:
    'PostgreSQL full-text search is the built-in engine: `q` is a web-search query (quotes for phrases, -word to exclude, or) ' +
    'and its last word also matches as a prefix (shir finds shirts); hits are ranked by relevance (title over description over ' +
    'filterable field values), then newest first. Without `q` every entity matching the filters is a hit (newest first): the ' +
    "spec's in-memory fallback (a query or filter required, facets-only answers empty) does not apply while PostgreSQL is the engine. " +
    'Filters: type, category and brand (UUID or slug), status (default active; others need catalog:read:unpublished), and ' +
    'attribute filters `attr.<name>=value` (REST, repeatable; GraphQL `attr: ["name=value"]`): values of one name are ORed, ' +
    'names ANDed, equality on approved en values of filterable fields. `facets=type,category,brand,status,<attribute names>` ' +
    'gives counts over the whole filtered result in meta.facets; each facet ignores its own filter. limit above 100 is clamped. ' +
    'With search.engine meilisearch the same parameters, rules and response shape are answered by Meilisearch (typo-tolerant on every word; ' +
    '503 SERVICE_UNAVAILABLE while it cannot be reached).',
  rest: { method: 'GET', path: '/search', queryPrefix: { prefix: 'attr.', arg: 'attr' }, queryOnly: ['include'] },
  access: { permission: PERMISSION.read },
  input: {
    q: z.string().max(500).optional().describe('Search text (web-search syntax)'),
    type: entityTypeSchema.optional().describe('Entity type, e.g. product'),
    category: z.string().min(1).max(200).optional().describe('Category UUID or slug'),
    brand: z.string().min(1).max(200).optional().describe('Brand UUID or slug'),
    status: z.enum(['draft', 'active', 'archived', 'discontinued']).optional().describe('Default active; others need catalog:read:unpublished'),
    attr: z.array(z.string().min(1).max(300)).max(50).optional().describe('Attribute filters as name=value items; over REST send attr.<name>=value, repeatable'),
    facets: z.string().max(1000).optional().describe('Comma-separated facet names: type, category, brand, status and filterable attribute names'),
    locale,
    page: z.number().int().min(1).default(1).describe('Page number, from 1'),
    limit: z.number().int().min(1).default(SEARCH_DEFAULT_LIMIT).describe(`Page size, default ${SEARCH_DEFAULT_LIMIT}; larger values are clamped to ${SEARCH_MAX_LIMIT}`),
    include,
  },
  output: SearchResultRef,
  listSize: { default: SEARCH_DEFAULT_LIMIT, max: SEARCH_MAX_LIMIT },
  paginated: true,
  resolve: (ctx, input) => search(ctx, { ...input, limit: Math.min(input.limit, SEARCH_MAX_LIMIT) }),
});

defineOperation({
  name: 'searchSuggestions',
  kind: 'query',
  summary: 'Search suggestions for a prefix',
  description:
    'Titles of active entities that start with the prefix or contain it at a word start, then titles close to it (typos, by ' +
    'trigram word similarity), and variant SKUs that start with it; distinct, best first. limit defaults to 10; above 100 is clamped.',
  rest: { method: 'GET', path: '/search/suggest' },
  access: { permission: PERMISSION.read },
  input: {
    prefix: z.string().max(200).describe('What the shopper typed so far'),
    type: entityTypeSchema.optional().describe('Entity type, e.g. product'),
    locale,
    limit: z.number().int().min(1).default(SUGGEST_DEFAULT_LIMIT).describe(`At most this many, default ${SUGGEST_DEFAULT_LIMIT}, clamped to ${SUGGEST_MAX_LIMIT}`),
  },
  output: [SuggestionRef],
  listSize: { default: SUGGEST_DEFAULT_LIMIT, max: SUGGEST_MAX_LIMIT },
  resolve: (ctx, input) => suggest(ctx, { ...input, limit: Math.min(input.limit, SUGGEST_MAX_LIMIT) }),
});
