// Runs `prisma generate` on machines that cannot download Prisma's native schema engine.
// `generate` only needs the engine path to exist (the prisma-client generator is Rust-free),
// so point PRISMA_SCHEMA_ENGINE_BINARY at this file unless the user set a real one.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
// The pothos generator is a bin of @pothos/plugin-prisma; npm puts .bin on PATH, plain node does not.
env.PATH = `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${env.PATH ?? ''}`;
const prismaBin = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
const result = spawnSync(process.execPath, [prismaBin, 'generate'], { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
