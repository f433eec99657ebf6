#!/usr/bin/env node
// The `commerce` command. The compiled CLI (dist/cli.js) when `npm run build` is current and no
// config module needs TypeScript (scripts/entry-target.mjs decides, as for `npm start`);
// otherwise src/cli.ts through tsx's loader, which compiles each module it loads on first use.
// Either way src/cli.ts imports only what the command runs (see its header).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { entryTarget } from '../scripts/entry-target.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = entryTarget({ root, entry: 'cli', env: process.env, cwd: process.cwd() });
if (target.kind === 'source') {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(pathToFileURL(target.file).href);
