// `npm run build`: compiles src/ to dist/ with the TypeScript compiler (the same checker that
// gates commits, so no second toolchain can disagree with it) and stamps the build so
// scripts/run-entry.mjs can tell a current build from a stale one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
fs.rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
if (result.status !== 0) process.exit(result.status ?? 1);
fs.writeFileSync(path.join(dist, '.build-stamp'), new Date().toISOString() + '\n');
console.log('built dist/');
