// Which file `npm start` / `npm run worker` runs (scripts/run-entry.mjs): the compiled JavaScript
// under dist/ when `npm run build` produced it and no source file is newer than that build,
// otherwise the TypeScript source through tsx's loader. Compiled code starts faster and uses less
// memory (no transpiler in the process); the staleness check keeps development on the source so
// an old build never runs by surprise.
//
// A config module (commerce.config.ts/.mjs/.js, or COMMERCE_CONFIG naming one) also keeps the
// process on the source: it is TypeScript or imports TypeScript (plugins/, src/), which only tsx
// can load, and the modules it imports from src/ would be a second copy beside dist/'s (the schema
// builder, the task and hook registries), so a plugin it enables would register into a copy the
// compiled server never reads. A JSON config (settings only, no code) runs compiled.
import fs from 'node:fs';
import path from 'node:path';

/** Same names and order as src/config/index.ts loadConfigFile. */
const CONFIG_FILE_NAMES = ['commerce.config.ts', 'commerce.config.mjs', 'commerce.config.js', 'commerce.config.json'];

function newestSource(dir) {
  let newest = 0;
  for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, item.name);
    newest = Math.max(newest, item.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function buildIsCurrent(root, entry) {
  try {
    const stamp = path.join(root, 'dist', '.build-stamp');
    return fs.statSync(path.join(root, 'dist', `${entry}.js`)).isFile() && fs.statSync(stamp).mtimeMs >= newestSource(path.join(root, 'src'));
  } catch {
    return false;
  }
}

/** The config file loadConfigFile will read, if any: COMMERCE_CONFIG, else commerce.config.* in cwd. */
function configFile(env, cwd) {
  if (env.COMMERCE_CONFIG) return path.resolve(cwd, env.COMMERCE_CONFIG);
  return CONFIG_FILE_NAMES.map((name) => path.join(cwd, name)).find((candidate) => fs.existsSync(candidate));
}

/**
 * @param {{ root: string, entry: string, env: NodeJS.ProcessEnv, cwd: string }} options
 * @returns {{ kind: 'compiled' | 'source', file: string, reason: string }}
 */
export function entryTarget({ root, entry, env, cwd }) {
  const source = (reason) => ({ kind: 'source', file: path.join(root, 'src', `${entry}.ts`), reason });
  if (env.COMMERCE_FROM_SOURCE === '1') return source('COMMERCE_FROM_SOURCE=1');
  const config = configFile(env, cwd);
  if (config && !config.endsWith('.json')) return source(`config module ${config}`);
  if (!buildIsCurrent(root, entry)) return source('no current build');
  return { kind: 'compiled', file: path.join(root, 'dist', `${entry}.js`), reason: 'current build' };
}
