// Launches an entry point (server, worker): compiled or from source, as scripts/entry-target.mjs
// decides (a current `npm run build` and no config module → dist/; otherwise src/ through tsx).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { entryTarget } from './entry-target.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2] ?? 'server';
const target = entryTarget({ root, entry, env: process.env, cwd: process.cwd() });

// The entry reads process.argv from index 2 onwards as its own arguments.
process.argv.splice(2, 1);
if (target.kind === 'source') {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(pathToFileURL(target.file).href);
