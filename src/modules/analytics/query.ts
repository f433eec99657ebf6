// The analytics query as input: zod validates it (422 naming the field), and the same shapes are
// GraphQL input objects so GraphiQL and SDKs see typed filters and time dimensions.
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { withGraphqlInput } from '../../graphql/zod-args.js';

export const GRANULARITIES = ['day', 'week', 'month', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export const DATE_PRESETS = ['today', 'yesterday', 'last 7 days', 'last 30 days', 'this month', 'last month', 'this year'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];
export const OPERATORS = ['equals', 'notEquals', 'contains', 'in', 'notIn', 'gt', 'gte', 'lt', 'lte', 'beforeDate', 'afterDate', 'inDateRange'] as const;
export type Operator = (typeof OPERATORS)[number];
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;
/** Nesting depth of and/or groups; deeper trees are refused rather than compiled. */
export const MAX_FILTER_DEPTH = 5;

const memberName = z.string().min(1).max(200);

export interface FilterInput {
  member?: string;
  operator?: Operator;
  values?: Array<string | number>;
  and?: FilterInput[];
  or?: FilterInput[];
}

// Groups nest: `and`/`or` items are checked by this same schema inside superRefine rather than
// through z.lazy, because a recursive zod schema becomes a dangling JSON-schema $ref in /api/doc.
const filterSchema = z
  .object({
    member: memberName.optional(),
    operator: z.enum(OPERATORS).optional(),
    values: z
      .array(z.union([z.string().max(1000), z.number()]))
      .max(1000)
      .optional(),
    and: z.array(z.looseObject({}).describe('A nested filter or group')).max(100).optional(),
    or: z.array(z.looseObject({}).describe('A nested filter or group')).max(100).optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    const kinds = [f.member !== undefined, f.and !== undefined, f.or !== undefined].filter(Boolean).length;
    if (kinds !== 1) ctx.addIssue({ code: 'custom', message: 'a filter is { member, operator, values } or { and: [...] } or { or: [...] }' });
    if (f.member !== undefined && !f.operator) ctx.addIssue({ code: 'custom', path: ['operator'], message: `operator required for ${f.member}` });
    for (const key of ['and', 'or'] as const) {
      f[key]?.forEach((child, i) => {
        const result = filterSchema.safeParse(child);
        if (!result.success)
          for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', path: [key, i, ...issue.path.map((p) => p as string | number)], message: issue.message });
      });
    }
  });

const dateRangeSchema = z.union([z.enum(DATE_PRESETS), z.array(z.string().max(40)).min(1).max(2)]);

const timeDimensionSchema = z
  .object({
    dimension: memberName,
    granularity: z.enum(GRANULARITIES).optional(),
    dateRange: dateRangeSchema.optional().describe(`Two dates YYYY-MM-DD (inclusive, organization timezone) or a preset: ${DATE_PRESETS.join(', ')}`),
  })
  .strict();

// ── GraphQL input objects ──

const FilterInputRef = builder.inputRef<Record<string, unknown>>('AnalyticsFilterInput').implement({
  description: 'A condition { member, operator, values } or a group { and: [...] } / { or: [...] }.',
  fields: (t) => ({
    member: t.string({ description: 'Model.member' }),
    operator: t.string({ description: OPERATORS.join(', ') }),
    values: t.stringList({ description: 'Values (numbers as strings are fine)' }),
    and: t.field({ type: [FilterInputRef] }),
    or: t.field({ type: [FilterInputRef] }),
  }),
});

const TimeDimensionInputRef = builder.inputRef<Record<string, unknown>>('AnalyticsTimeDimensionInput').implement({
  description: 'A time dimension: buckets by granularity and/or restricts to a date range.',
  fields: (t) => ({
    dimension: t.string({ required: true, description: 'Model.member of type time' }),
    granularity: t.string({ description: GRANULARITIES.join(', ') }),
    dateRange: t.stringList({ description: `[from, to] as YYYY-MM-DD, or one preset: ${DATE_PRESETS.join(', ')}` }),
  }),
});

export const QUERY_INPUT = {
  measures: z.array(memberName).min(1).max(50).describe('Model.measure names'),
  dimensions: z.array(memberName).max(20).default([]).describe('Model.dimension names'),
  timeDimensions: z.array(withGraphqlInput(timeDimensionSchema, TimeDimensionInputRef)).max(5).default([]),
  filters: z.array(withGraphqlInput(filterSchema, FilterInputRef)).max(100).default([]),
  order: z
    .record(z.string().max(200), z.enum(['asc', 'desc']))
    .optional()
    .describe('Map of member name to asc or desc'),
  limit: z.number().int().min(1).optional().describe(`Rows, default ${DEFAULT_LIMIT}; larger values are clamped to ${MAX_LIMIT}`),
  segments: z.array(memberName).max(20).default([]).describe('Model.segment names, e.g. Inventory.lowStock'),
};

export interface AnalyticsQuery {
  measures: string[];
  dimensions: string[];
  timeDimensions: Array<{ dimension: string; granularity?: Granularity; dateRange?: DatePreset | string[] }>;
  filters: FilterInput[];
  order?: Record<string, 'asc' | 'desc'>;
  limit?: number;
  segments: string[];
}
