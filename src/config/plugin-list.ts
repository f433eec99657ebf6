// Boot-time checks over config.plugins, run when the configuration loads (config/index.ts
// applyPlugins). They read only the manifest fields below, so the configuration layer checks the
// list without importing the plugin host (src/plugins/, which re-exports these).

export class PluginError extends Error {
  override name = 'PluginError';
}

/** The manifest fields the list checks read (src/plugins/index.ts PluginManifest has them all). */
interface ListedManifest {
  id: string;
  requires?: string[];
  tasks?: Array<{ slug: string }>;
}

function listedManifest(plugin: unknown): ListedManifest | null {
  const manifest = (plugin as { manifest?: ListedManifest } | null)?.manifest;
  return manifest && typeof manifest.id === 'string' ? manifest : null;
}

/**
 * Boot-time checks over config.plugins, before anything is applied: one id per plugin, every
 * required plugin present and listed earlier, no task slug claimed twice. (Routes are checked
 * when they are declared: the route builder refuses a second operation name or method + path.)
 */
export function checkPluginList(plugins: readonly unknown[]): void {
  const seen = new Map<string, number>();
  const slugs = new Map<string, string>();
  plugins.forEach((plugin, index) => {
    const manifest = listedManifest(plugin);
    if (!manifest) return; // a bare config → config function: nothing to check
    const earlier = seen.get(manifest.id);
    if (earlier !== undefined) throw new PluginError(`plugin ${manifest.id} is listed twice in config.plugins (positions ${earlier + 1} and ${index + 1})`);
    for (const needed of manifest.requires ?? []) {
      if (seen.has(needed)) continue;
      const later = plugins.findIndex((p) => listedManifest(p)?.id === needed);
      throw new PluginError(
        later === -1
          ? `plugin ${manifest.id} requires plugin ${needed}, which is not in config.plugins`
          : `plugin ${manifest.id} requires plugin ${needed}, which is listed after it: move ${needed} before ${manifest.id} in config.plugins`,
      );
    }
    for (const task of manifest.tasks ?? []) {
      const owner = slugs.get(task.slug);
      if (owner) throw new PluginError(`task ${task.slug} is declared by plugins ${owner} and ${manifest.id}`);
      slugs.set(task.slug, manifest.id);
    }
    seen.set(manifest.id, index);
  });
}
