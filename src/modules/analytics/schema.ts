// Analytics operations: meta, query, and the six reports (reports.schema.ts).
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { QUERY_INPUT, type AnalyticsQuery } from './query.js';
import { analyticsMeta, runAnalyticsQuery, type AnalyticsResult, type ModelMeta } from './service.js';
import './reports.schema.js';
import { defineEnum } from '../../graphql/enums.js';
const AnalyticsMemberTypeEnum = defineEnum('AnalyticsMemberType', ['string', 'number', 'time'] as const, 'Type of an analytics member.');

const VISIBILITY =
  "Owner, admin and staff users (and API keys with analytics:read) see every model with their organization's rows; a customer sees customer models " +
  '(Orders, OrderLineItems, Customers) with their own rows only; a vendor sees vendor models with its own rows. Anonymous callers get 401.';

const MemberMetaRef = builder.objectRef<{ name: string; title: string; type: string; aggregation?: string; format?: string }>('AnalyticsMemberMeta').implement({
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Model.member' }),
    title: t.exposeString('title'),
    type: t.field({ type: AnalyticsMemberTypeEnum, description: 'number for measures; string, number or time for dimensions', resolve: (m) => m.type as never }),
    aggregation: t.exposeString('aggregation', { nullable: true, description: 'count, sum, avg or countDistinct (measures)' }),
    format: t.exposeString('format', { nullable: true, description: 'currency: minor units of the organization currency' }),
  }),
});

const SegmentMetaRef = builder.objectRef<{ name: string; title: string }>('AnalyticsSegmentMeta').implement({
  fields: (t) => ({ name: t.exposeString('name'), title: t.exposeString('title') }),
});

const ModelMetaRef = builder.objectRef<ModelMeta>('AnalyticsModelMeta').implement({
  description: 'A model the caller may query.',
  fields: (t) => ({
    name: t.exposeString('name'),
    title: t.exposeString('title'),
    measures: t.expose('measures', { type: [MemberMetaRef] }),
    dimensions: t.expose('dimensions', { type: [MemberMetaRef] }),
    segments: t.expose('segments', { type: [SegmentMetaRef] }),
    joins: t.exposeStringList('joins', { description: 'Models whose dimensions may be mixed into queries of this model' }),
  }),
});

const ResultMetaRef = builder.objectRef<AnalyticsResult['meta']>('AnalyticsQueryMeta').implement({
  fields: (t) => ({
    query: t.field({ type: 'JSONObject', description: 'The query as run (defaults filled in, limit clamped)', resolve: (m) => m.query as never }),
    annotation: t.field({ type: 'JSONObject', description: "Each member's title and type", resolve: (m) => m.annotation as never }),
  }),
});

const ResultRef = builder.objectRef<AnalyticsResult>('AnalyticsQueryResult').implement({
  description: 'Rows keyed by member name (time buckets as Model.member.granularity), and what was run.',
  fields: (t) => ({
    data: t.field({ type: ['JSONObject'], resolve: (r) => r.data as never }),
    meta: t.expose('meta', { type: ResultMetaRef }),
  }),
});

defineOperation({
  name: 'analyticsMeta',
  kind: 'query',
  summary: 'The analytics models, measures, dimensions and segments the caller may query',
  description: VISIBILITY,
  rest: { method: 'GET', path: '/analytics/meta' },
  access: 'authenticated',
  input: {},
  output: [ModelMetaRef],
  resolve: (ctx) => analyticsMeta(ctx),
});

defineOperation({
  name: 'analyticsQuery',
  kind: 'query',
  summary: 'Run an analytics query',
  description:
    'measures (Model.measure, all from one model), dimensions, timeDimensions ({ dimension, granularity day|week|month|year, dateRange }), ' +
    'filters ({ member, operator, values } or { and } / { or } groups), order ({ member: asc|desc }), limit (default 100, clamped to 10000), ' +
    'segments. Compiles to one parameterized SQL statement; days and presets follow the organization timezone (settings general). ' +
    'Every mistake is 422 VALIDATION_FAILED naming the member. ' +
    VISIBILITY,
  rest: { method: 'POST', path: '/analytics/query' },
  access: 'authenticated',
  input: QUERY_INPUT,
  output: ResultRef,
  paginated: true,
  resolve: (ctx, input) => runAnalyticsQuery(ctx, input as AnalyticsQuery),
});
