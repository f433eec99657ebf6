// Activation: what a process does with config.plugins at boot. Routes, hooks and tasks live in
// process-wide registries (the Pothos builder, the hook and task registries), so a plugin is
// activated once per process, before the GraphQL schema is built; a plugin that is not
// enabled is never activated and registers nothing (no field, no REST route, no /api/doc
// entry, no task). Analytics models go to a registry the analytics module reads.
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import { builder } from '../graphql/builder.js';
import { operations } from '../graphql/operation.js';
import { isSchemaBuilt } from '../graphql/schema.js';
import { hooks } from '../events/hooks.js';
import { tasks } from '../jobs/tasks.js';
import { checkPluginList, manifestOf, PluginError, type PluginAnalyticsModel, type PluginManifest } from './index.js';
import { createRouteGroup, pluginDefineOperation } from './routes.js';
import { registerAnalyticsModel, type AnalyticsModel } from '../modules/analytics/registry.js';
// The built-in models first, so that a plugin model reusing a built-in name fails naming the plugin.
import '../modules/analytics/models.js';
import { registerActorExtension } from '../auth/actor-extensions.js';
import { registerEventNames } from '../events/registry.js';

const active = new Map<string, PluginManifest>();

/** Analytics models contributed by the active plugins, by name (the analytics registry reads it). */
export const pluginAnalyticsModels = new Map<string, PluginAnalyticsModel & { pluginId: string }>();

/** The manifests active in this process, in activation order. */
export function activePlugins(): PluginManifest[] {
  return [...active.values()];
}

const COLUMN = /^[a-z_][a-z0-9_]*$/;

/** A plugin's model in the registry's shape: bare column names become `{T}.column`, titles default to names. */
export function analyticsModelOf(model: PluginAnalyticsModel): AnalyticsModel {
  if (!COLUMN.test(model.table)) throw new PluginError(`analytics model ${model.name}: table ${JSON.stringify(model.table)} is not a table name`);
  if (model.organizationColumn !== undefined && !COLUMN.test(model.organizationColumn))
    throw new PluginError(`analytics model ${model.name}: organizationColumn ${JSON.stringify(model.organizationColumn)} is not a column name`);
  const sql = (snippet: string) => (COLUMN.test(snippet) ? `{T}.${snippet}` : snippet);
  const titled = <D extends { title?: string; sql?: string }>(defs: Record<string, D>) =>
    Object.fromEntries(Object.entries(defs).map(([name, d]) => [name, { ...d, title: d.title ?? name, ...(d.sql !== undefined ? { sql: sql(d.sql) } : {}) }]));
  return {
    name: model.name,
    title: model.title ?? model.name,
    table: model.table,
    organizationColumn: model.organizationColumn,
    measures: titled(model.measures) as AnalyticsModel['measures'],
    dimensions: titled(model.dimensions) as AnalyticsModel['dimensions'],
    segments: model.segments ? (titled(model.segments) as AnalyticsModel['segments']) : undefined,
    joins: model.joins,
    scopes: model.scopes,
  };
}

function activate(manifest: PluginManifest, config: Config, logger: Logger): void {
  const where = (error: unknown) => new PluginError(`plugin ${manifest.id}: ${error instanceof Error ? error.message : String(error)}`);
  for (const task of manifest.tasks ?? []) {
    if (tasks.get(task.slug)) throw new PluginError(`plugin ${manifest.id}: task ${task.slug} is already defined (by the core or another plugin)`);
  }
  if (manifest.routes) {
    if (isSchemaBuilt())
      throw new PluginError(
        `plugin ${manifest.id}: the GraphQL schema of this process was built before the plugin was enabled; enable plugins in the config the process boots with`,
      );
    const before = new Set(operations.keys());
    try {
      manifest.routes({
        pluginId: manifest.id,
        config,
        logger,
        routes: (options) => createRouteGroup(options),
        defineOperation: pluginDefineOperation,
        builder,
      });
    } catch (error) {
      throw where(error);
    }
    logger.debug({ plugin: manifest.id, operations: [...operations.keys()].filter((k) => !before.has(k)) }, 'plugin routes declared');
  }
  for (const task of manifest.tasks ?? []) tasks.define(task);
  for (const hook of manifest.hooks ?? []) hooks.on(hook.key, hook.handler, { name: hook.name ?? `${manifest.id}:${hook.key}` });
  for (const model of manifest.analyticsModels ?? []) {
    const owner = pluginAnalyticsModels.get(model.name);
    if (owner) throw new PluginError(`plugin ${manifest.id}: analytics model ${model.name} is already declared by plugin ${owner.pluginId}`);
    try {
      registerAnalyticsModel(analyticsModelOf(model));
    } catch (error) {
      throw where(error);
    }
    pluginAnalyticsModels.set(model.name, { ...model, pluginId: manifest.id });
  }
  if (manifest.events) registerEventNames(manifest.events);
  if (manifest.actor) registerActorExtension(manifest.id, manifest.actor);
  active.set(manifest.id, manifest);
}

/**
 * Activates config.plugins in list order. Booting again in the same process with the same
 * plugin objects (tests start several apps per file) is a no-op; a different plugin under an
 * id already active is refused.
 */
export function activatePlugins(config: Config, logger: Logger): PluginManifest[] {
  checkPluginList(config.plugins);
  const activated: PluginManifest[] = [];
  for (const plugin of config.plugins) {
    const manifest = manifestOf(plugin);
    if (!manifest) continue;
    const existing = active.get(manifest.id);
    if (existing === manifest) continue;
    if (existing) throw new PluginError(`plugin ${manifest.id} is already active in this process with another manifest`);
    activate(manifest, config, logger);
    activated.push(manifest);
  }
  if (activated.length) logger.info({ plugins: activated.map((m) => `${m.id}@${m.version}`) }, 'plugins activated');
  return activated;
}
