// Plugins. A plugin is a function config → config, applied in list order (config.plugins), so
// a plugin that builds on another comes after it. definePlugin turns a manifest into one: its
// API-key scopes merge into the config (a same-named entry the user configured wins), and its
// routes, hooks, tasks and analytics models are activated when a process boots with it
// (src/plugins/runtime.ts). A plugin that is not in config.plugins registers nothing.
//
// The manifest is the whole extension surface (the marketplace plugin and third-party plugins
// build on it): tables (`schema`, the plugin's Prisma file, merged into prisma/schema.prisma by
// scripts/plugins-schema.ts), routes (through the core route builder, so each is a GraphQL
// field, a REST route and an OpenAPI entry), hooks, job tasks, API-key scopes, permissions and
// analytics models.
import type { ApiKeyScope, ConfigInput } from '../config/schema.js';
import { PluginError } from '../config/plugin-list.js';
import type { HookHandler, HookKey } from '../events/hooks.js';
import type { TaskDefinition } from '../jobs/tasks.js';
import type { ActorExtension } from '../auth/actor-extensions.js';
import type { PluginRouteContext } from './routes.js';
import type { DimensionType, MeasureType, ModelScopes } from '../modules/analytics/registry.js';

export interface PluginHook<K extends HookKey = HookKey> {
  key: K;
  handler: HookHandler<K>;
  /** Name in hook error reports; default `<plugin id>:<key>`. */
  name?: string;
}

/** A hook entry with its payload typed by its key: `pluginHook('orders.afterCreate', ({ order }) => …)`. */
export function pluginHook<K extends HookKey>(key: K, handler: HookHandler<K>, name?: string): PluginHook {
  return { key, handler: handler as unknown as HookHandler<HookKey>, name };
}

/**
 * An analytics model a plugin contributes (the spec's shape: name, table, measures and
 * dimensions). At activation it is registered in the analytics model registry
 * (src/modules/analytics/registry.ts), so it is listed by GET /analytics/meta and queryable by
 * POST /analytics/query with the same rules as a built-in model: one parameterized statement,
 * the caller's organization filtered inside it (`organizationColumn`, default organization_id),
 * staff/admin only unless `scopes` names a customer or vendor column.
 *
 * `sql` of a measure or dimension is a column of `table` (`paid_amount`) or an expression over
 * the model's alias `{T}` (`{T}.total - {T}.paid_amount`); it is the plugin author's code, never
 * request input.
 */
export interface PluginAnalyticsModel {
  /** Model name, the prefix of its members in queries: `LayawayPlans.count`. */
  name: string;
  title?: string;
  /** The plugin's table (`plugin_<id>_...`). */
  table: string;
  organizationColumn?: string;
  measures: Record<string, { type: MeasureType; sql?: string; filter?: string; title?: string; format?: 'currency' | 'number' }>;
  dimensions: Record<string, { type: DimensionType; sql: string; title?: string }>;
  segments?: Record<string, { sql: string; title?: string }>;
  /** Many-to-one joins to other models (`{ Orders: { sql: '{Orders}.id = {T}.order_id' } }`). */
  joins?: Record<string, { sql: string }>;
  scopes?: ModelScopes;
}

export interface PluginManifest {
  /** Unique, lower-case: `pos`, `layaway`, `channel`. */
  id: string;
  /** Semantic version of the plugin. */
  version: string;
  /** Ids of plugins this one builds on; they must be listed before it in config.plugins. */
  requires?: string[];
  /** Permission strings the plugin's routes use, documented for operators. */
  permissions?: Array<{ scope: string; description: string }>;
  /** The plugin's Prisma models, relative to the repository root (e.g. `plugins/pos/schema.prisma`). */
  schema?: string;
  /** Declares the plugin's operations (defineOperation or the pluginRoutes vocabulary). */
  routes?: (ctx: PluginRouteContext) => void;
  hooks?: PluginHook[];
  /** Job tasks; slugs are `<plugin id>/<action>` by convention and must be unique. */
  tasks?: TaskDefinition[];
  analyticsModels?: PluginAnalyticsModel[];
  apiKeyScopes?: Record<string, ApiKeyScope>;
  /** Adds facts to resolved actors (e.g. the marketplace's vendorId); see auth/actor-extensions.ts. */
  actor?: ActorExtension;
  /** Event names the plugin emits (outbox + webhooks), `<plugin id>.<name>`. */
  events?: string[];
}

export type Plugin = ((config: ConfigInput) => ConfigInput) & { manifest: PluginManifest };

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

// The list checks run when the configuration loads, below this layer: they live there.
export { checkPluginList, PluginError } from '../config/plugin-list.js';

export function definePlugin(manifest: PluginManifest): Plugin {
  if (!manifest.id || !/^[a-z][a-z0-9-]*$/.test(manifest.id)) throw new PluginError(`a plugin manifest needs a lower-case id, got ${JSON.stringify(manifest.id)}`);
  if (!SEMVER.test(manifest.version)) throw new PluginError(`plugin ${manifest.id}: version ${manifest.version} is not a semantic version`);
  const apply = (config: ConfigInput): ConfigInput => ({
    ...config,
    // The plugin's entries first, so the user's same-named entries win.
    apiKeyScopes: { ...manifest.apiKeyScopes, ...config.apiKeyScopes },
  });
  return Object.assign(apply, { manifest });
}

export function manifestOf(plugin: unknown): PluginManifest | null {
  const manifest = (plugin as { manifest?: PluginManifest } | null)?.manifest;
  return manifest && typeof manifest.id === 'string' ? manifest : null;
}
