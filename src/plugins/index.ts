// Plugins. A plugin is a function config → config, applied in list order (config.plugins), so
// a plugin that builds on another comes after it. definePlugin turns a manifest into one:
// its API-key scopes and permissions merge in, and a same-named entry the user configured wins.
import type { ApiKeyScope, ConfigInput } from '../config/schema.js';

export interface PluginManifest {
  id: string;
  /** Semantic version of the plugin. */
  version: string;
  /** Permission strings the plugin's routes use, documented for operators. */
  permissions?: Array<{ scope: string; description: string }>;
  apiKeyScopes?: Record<string, ApiKeyScope>;
}

export type Plugin = ((config: ConfigInput) => ConfigInput) & { manifest: PluginManifest };

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export function definePlugin(manifest: PluginManifest): Plugin {
  if (!manifest.id) throw new Error('a plugin manifest needs an id');
  if (!SEMVER.test(manifest.version)) throw new Error(`plugin ${manifest.id}: version ${manifest.version} is not a semantic version`);
  const apply = (config: ConfigInput): ConfigInput => ({
    ...config,
    // The plugin's entries first, so the user's same-named entries win.
    apiKeyScopes: { ...manifest.apiKeyScopes, ...config.apiKeyScopes },
  });
  return Object.assign(apply, { manifest });
}
