// Launches an entry point (server, worker): compiled or from source, as scripts/entry-target.mjs
// decides (a current `npm run build` and no config module → dist/; otherwise src/ through tsx).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { entryTarget } from './entry-target.mjs';
import { ensureAdminBundle } from './admin-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2] ?? 'server';
const target = entryTarget({ root, entry, env: process.env, cwd: process.cwd() });

// The entry reads process.argv from index 2 onwards as its own arguments.
process.argv.splice(2, 1);
// The server serves the dashboard at /admin: build its bundle first when missing or stale (a fresh
// clone, or admin/ changed). ADMIN_BUILD=0 skips this (a deployment that ships admin/dist).
if (entry === 'server' && process.env.ADMIN_BUILD !== '0') {
  try {
    await ensureAdminBundle();
  } catch (error) {
    // The API does not need the dashboard: start without it, and say why /admin answers 503.
    console.error(`admin: dashboard bundle not built (${error instanceof Error ? error.message : error}); /admin will answer 503`);
  }
}
if (target.kind === 'source') {
  const { register } = await import('tsx/esm/api');
  register();
} else {
  // dist/ is a bundle (scripts/build.mjs): its source maps name the src/ and node_modules/ lines
  // in stack traces. Applies to modules loaded from here on; costs ~5% of the start's CPU.
  process.setSourceMapsEnabled(true);
}
await import(pathToFileURL(target.file).href);
