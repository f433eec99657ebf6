// The analytics model registry: the semantic layer's vocabulary. Built-in models (models.ts)
// and plugins (through `registerAnalyticsModel`, e.g. the marketplace's VendorOrders) add models
// here; the compiler (compile.ts) only ever puts SQL from this registry into a statement, and
// every value from a request becomes a bind parameter.
//
// SQL snippets name tables by model: `{T}` is the model's own table alias and `{Orders}` that of
// another model, which the compiler then joins through a declared join. Snippets are written by
// developers, never derived from input.

export type MeasureType = 'count' | 'sum' | 'avg' | 'countDistinct';
export type DimensionType = 'string' | 'number' | 'time';

export interface MeasureDef {
  type: MeasureType;
  /** Column or expression aggregated; `count` without it counts rows. */
  sql?: string;
  /** Only rows matching this condition are aggregated (an SQL FILTER clause). */
  filter?: string;
  title: string;
  /** `currency`: minor units of the organization's currency. */
  format?: 'currency' | 'number';
}

export interface DimensionDef {
  type: DimensionType;
  sql: string;
  title: string;
}

export interface SegmentDef {
  sql: string;
  title: string;
}

/** Who may query a model: organization staff always; customers and vendors through a scope column. */
export interface ModelScopes {
  /** The customer id of a row (may name a joined model): customers see rows where it is theirs. */
  customer?: string;
  /** The vendor id of a row: vendor actors see rows where it is theirs. */
  vendor?: string;
}

export interface AnalyticsModel {
  name: string;
  title: string;
  /** The table (or a parenthesized subquery) the model reads. */
  table: string;
  /** Tenancy: the column holding the organization id; always filtered by the caller's organization. */
  organizationColumn?: string;
  measures: Record<string, MeasureDef>;
  dimensions: Record<string, DimensionDef>;
  segments?: Record<string, SegmentDef>;
  /** Many-to-one joins to other models: their ON condition. Only these may be mixed in a query. */
  joins?: Record<string, { sql: string }>;
  scopes?: ModelScopes;
}

const NAME_RE = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
const models = new Map<string, AnalyticsModel>();

/** Adds a model (plugins call this from their manifest's analyticsModels). Names are identifiers. */
export function registerAnalyticsModel(model: AnalyticsModel): void {
  const names = [model.name, ...Object.keys(model.measures), ...Object.keys(model.dimensions), ...Object.keys(model.segments ?? {})];
  const bad = names.find((name) => !NAME_RE.test(name));
  if (bad) throw new Error(`analytics model ${model.name}: ${bad} is not a valid member name`);
  if (models.has(model.name)) throw new Error(`analytics model ${model.name} is registered twice`);
  models.set(model.name, model);
}

export function analyticsModel(name: string): AnalyticsModel | undefined {
  return models.get(name);
}

export function analyticsModels(): AnalyticsModel[] {
  return [...models.values()];
}
