// Every plugin this repository ships, enabled together the README's way (one commerce.config.ts
// list), with the route prefix each mounts: the all-plugins fuzz, the path-parameter check and
// the plugin permission matrix read it, so a new shipped plugin is added here once.
import type { Plugin } from '../../src/plugins/index.js';
import { loyalty } from '../../plugins/loyalty/index.js';
import { layaway } from '../../plugins/layaway/index.js';
import { pos } from '../../plugins/pos/index.js';
import { channel } from '../../plugins/channel/index.js';
import { marketplace } from '../../plugins/marketplace/index.js';

export const SHIPPED_PLUGINS: ReadonlyArray<{ id: string; prefix: string; make: () => Plugin }> = [
  { id: 'loyalty', prefix: '/loyalty/', make: () => loyalty() },
  { id: 'layaway', prefix: '/layaways', make: () => layaway() },
  { id: 'pos', prefix: '/pos/', make: () => pos() },
  { id: 'channel', prefix: '/channel/', make: () => channel() },
  { id: 'marketplace', prefix: '/marketplace/', make: () => marketplace() },
];

/** Every shipped plugin, the same objects on every call: activation is once per process, and a second app of the same process must boot with the same plugin objects. */
let made: Plugin[] | undefined;
export function shippedPlugins(): Plugin[] {
  made ??= SHIPPED_PLUGINS.map((p) => p.make());
  return made;
}

/** The malformed path ids of issue 32 (each answered 500 on a layaway route). */
export const MALFORMED_IDS = ['not-a-uuid', "1' OR '1'='1", 'x'.repeat(3000), '\u0000', '../../etc/passwd'];
