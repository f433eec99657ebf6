// Runs analytics queries and describes the models a caller may query.
import type { RequestContext } from '../../context.js';
import { AppError, validationFailed } from '../../errors.js';
import { hasPermission } from '../../auth/permissions.js';
import { compileQuery, modelVisible, QueryErrors, type Audience, type CompiledQuery } from './compile.js';
import type { AnalyticsQuery } from './query.js';
import { analyticsModels } from './registry.js';
import './models.js';

/** Roles that see their whole organization's numbers. */
const ORGANIZATION_ROLES = new Set(['owner', 'admin', 'staff']);
export const ANALYTICS_PERMISSION = 'analytics:read';

/** Whose rows a caller sees: staff their organization's, customers and vendors their own. */
export function audienceOf(ctx: Pick<RequestContext, 'actor'>): Audience {
  const actor = ctx.actor;
  if (!actor) throw new AppError('UNAUTHORIZED', 'Authentication required for analytics');
  if (actor.kind === 'user' && actor.role && ORGANIZATION_ROLES.has(actor.role)) return { kind: 'organization' };
  if (hasPermission(actor.permissions, ANALYTICS_PERMISSION)) return { kind: 'organization' };
  if (actor.vendorId) return { kind: 'vendor', vendorId: actor.vendorId };
  if (actor.customerId) return { kind: 'customer', customerId: actor.customerId };
  return { kind: 'none' };
}

export interface AnalyticsResult {
  data: Array<Record<string, unknown>>;
  meta: { query: CompiledQuery['query']; annotation: CompiledQuery['annotation'] };
}

export function compileFor(ctx: Pick<RequestContext, 'actor' | 'organization'>, query: AnalyticsQuery): CompiledQuery {
  try {
    return compileQuery(query, audienceOf(ctx), ctx.organization.id);
  } catch (error) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    if (error instanceof QueryErrors) throw validationFailed(error.issues, `Invalid analytics query: ${error.issues[0]!.message}`);
    throw error;
  }
}

export async function runAnalyticsQuery(ctx: Pick<RequestContext, 'actor' | 'organization' | 'db'>, query: AnalyticsQuery): Promise<AnalyticsResult> {
  const compiled = compileFor(ctx, query);
  const rows = await ctx.db.$queryRaw<Array<Record<string, unknown>>>(compiled.sql);
  return { data: rows, meta: { query: compiled.query, annotation: compiled.annotation } };
}

export interface ModelMeta {
  name: string;
  title: string;
  measures: Array<{ name: string; title: string; type: string; aggregation: string; format?: string }>;
  dimensions: Array<{ name: string; title: string; type: string }>;
  segments: Array<{ name: string; title: string }>;
  joins: string[];
}

export function analyticsMeta(ctx: Pick<RequestContext, 'actor'>): ModelMeta[] {
  const audience = audienceOf(ctx);
  return analyticsModels()
    .filter((model) => modelVisible(model, audience))
    .map((model) => ({
      name: model.name,
      title: model.title,
      measures: Object.entries(model.measures).map(([name, m]) => ({
        name: `${model.name}.${name}`,
        title: m.title,
        type: 'number',
        aggregation: m.type,
        ...(m.format ? { format: m.format } : {}),
      })),
      dimensions: Object.entries(model.dimensions).map(([name, d]) => ({ name: `${model.name}.${name}`, title: d.title, type: d.type })),
      segments: Object.entries(model.segments ?? {}).map(([name, s]) => ({ name: `${model.name}.${name}`, title: s.title })),
      joins: Object.keys(model.joins ?? {}),
    }));
}
