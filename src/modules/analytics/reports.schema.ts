// The reports as operations (JSON through sofa) and as CSV: GET /api/analytics/reports/:name
// with `Accept: text/csv` is served by a raw route calling the same service.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { defineOperation } from '../../graphql/operation.js';
import { defineRawRoute } from '../../http/raw-routes.js';
import { reportCsv, reportList, runReport, type ReportResult } from './reports.js';
import { ANALYTICS_PERMISSION } from './service.js';
import { defineEnum } from '../../graphql/enums.js';
const ReportColumnTypeEnum = defineEnum('ReportColumnType', ['string', 'number', 'currency', 'ratio'] as const, 'How a report column is to be read.');

const day = z.string().max(10).describe('YYYY-MM-DD, a local day in the organization timezone');
const access = { permission: ANALYTICS_PERMISSION } as const;

const ColumnRef = builder.objectRef<{ key: string; title: string; type: string }>('ReportColumn').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    title: t.exposeString('title'),
    type: t.field({ type: ReportColumnTypeEnum, description: 'currency is minor units', resolve: (c) => c.type as never }),
  }),
});

const ReportInfoRef = builder.objectRef<ReturnType<typeof reportList>[number]>('ReportInfo').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    parameters: t.exposeStringList('parameters'),
    columns: t.expose('columns', { type: [ColumnRef] }),
  }),
});

const ReportMetaRef = builder.objectRef<ReportResult['meta']>('ReportMeta').implement({
  fields: (t) => ({
    report: t.exposeString('report'),
    title: t.exposeString('title'),
    parameters: t.expose('parameters', { type: 'JSONObject', description: 'The days the report covers (date, or from and to)' }),
    timezone: t.exposeString('timezone'),
    currency: t.exposeString('currency', { nullable: true, description: 'settings general.currency; amounts are minor units of it' }),
    columns: t.expose('columns', { type: [ColumnRef] }),
    totals: t.expose('totals', { type: 'JSONObject', nullable: true }),
    generatedAt: t.exposeString('generatedAt'),
  }),
});

const ReportResultRef = builder.objectRef<ReportResult>('ReportResult').implement({
  fields: (t) => ({
    data: t.field({ type: ['JSONObject'], resolve: (r) => r.data as never }),
    meta: t.expose('meta', { type: ReportMetaRef }),
  }),
});

defineOperation({
  name: 'analyticsReports',
  kind: 'query',
  summary: 'The available reports',
  rest: { method: 'GET', path: '/analytics/reports' },
  access,
  input: {},
  output: [ReportInfoRef],
  resolve: () => reportList(),
});

defineOperation({
  name: 'analyticsReport',
  kind: 'query',
  summary: 'Run one report',
  description:
    'daily-journal (date), tax-summary, sell-through and staff-sales (from, to; default the last 30 days), inventory-aging and reorder-needed (now). ' +
    'Days are calendar days in the organization timezone; a parameter that is not YYYY-MM-DD is 422. meta states the parameters, timezone and currency. ' +
    'Send `Accept: text/csv` to get the same report as CSV.',
  rest: { method: 'GET', path: '/analytics/reports/:name' },
  access,
  input: { name: z.string().min(1).max(100), date: day.optional(), from: day.optional(), to: day.optional() },
  output: ReportResultRef,
  paginated: true,
  resolve: (ctx, input) => runReport(ctx, input.name, input),
});

defineRawRoute({
  method: 'GET',
  path: '/analytics/reports/:name',
  accept: 'text/csv',
  access,
  openapi: {},
  handle: async (ctx, params) => {
    const url = new URL(ctx.request.url);
    const get = (key: string) => url.searchParams.get(key) ?? undefined;
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const result = await runReport(ctx, params.name!, { date: get('date'), from: get('from'), to: get('to') });
    const suffix = Object.values(result.meta.parameters).join('_');
    return new Response(reportCsv(result), {
      status: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${result.meta.report}-${suffix}.csv"`,
        'cache-control': 'private, no-store',
      },
    });
  },
});
