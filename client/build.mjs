// `npm run build` (and `prepack`): compiles src/ to dist/ (ES modules + .d.ts) with the
// TypeScript compiler. Inside the repository the package must carry the server's version (the
// SDK's types are that version's contract), so a mismatch stops the build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const own = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
const rootManifest = path.join(here, '..', 'package.json');
if (fs.existsSync(rootManifest)) {
  const root = JSON.parse(fs.readFileSync(rootManifest, 'utf8'));
  if (root.name === 'commerce-service' && root.version !== own.version) {
    console.error(`client/package.json version ${own.version} differs from the server's ${root.version}: set it to ${root.version}`);
    process.exit(1);
  }
}
const dist = path.join(here, 'dist');
fs.rmSync(dist, { recursive: true, force: true });
// Found in client/node_modules, or in the repository's node_modules when built from a clone.
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json')], { stdio: 'inherit', cwd: here });
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(`built ${path.relative(process.cwd(), dist) || dist}`);
