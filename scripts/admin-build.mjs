// Builds the dashboard bundle (admin/ → admin/dist) when it is missing or stale. "Stale" is a
// sha256 over every source file of admin/ (dist and the generated screenshots aside) plus the
// installed versions of vite and react, compared with admin/dist/.source-hash. `npm start` calls
// ensureAdminBundle() before the server starts; `npm run admin:build` forces a build.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const adminDir = path.join(root, 'admin');
const distDir = path.join(adminDir, 'dist');
const hashFile = path.join(distDir, '.source-hash');
// Top-level folders of admin/ that are not sources: the bundle, admin:screens' screenshots and
// installed packages. Matched by path, not by name: admin/src/screens holds the screens' sources,
// and skipping every folder called "screens" left the bundle stale after a screen was edited.
const SKIP = new Set(['dist', 'screens', 'node_modules'].map((name) => path.join(adminDir, name)));

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(path.join(dir, entry.name))) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

export function adminSourceHash() {
  const hash = crypto.createHash('sha256');
  for (const file of files(adminDir).sort()) {
    hash.update(path.relative(adminDir, file));
    hash.update(fs.readFileSync(file));
  }
  for (const pkg of ['vite', 'react', '@mantine/core']) {
    try {
      hash.update(pkg + JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version);
    } catch {
      /* not installed: the build below will say so */
    }
  }
  return hash.digest('hex');
}

export function adminBundleCurrent() {
  return fs.existsSync(path.join(distDir, 'index.html')) && fs.existsSync(hashFile) && fs.readFileSync(hashFile, 'utf8').trim() === adminSourceHash();
}

/** Builds when missing or stale (or always with force); answers what it did and how long it took. */
export async function ensureAdminBundle({ force = false, log = console.error } = {}) {
  const started = Date.now();
  if (!force && adminBundleCurrent()) return { built: false, ms: Date.now() - started };
  const hash = adminSourceHash();
  const { build } = await import('vite');
  // Vite keeps an inherited NODE_ENV (vitest sets `test`), which would bundle React's development
  // build: the dashboard is always built for production.
  const inherited = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(adminDir, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  } finally {
    if (inherited === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = inherited;
  }
  fs.writeFileSync(hashFile, hash + '\n');
  const ms = Date.now() - started;
  log(`admin: dashboard bundle built in ${ms} ms (admin/dist)`);
  return { built: true, ms };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await ensureAdminBundle({ force: process.argv.includes('--force'), log: console.log });
  if (!result.built) console.log(`admin: bundle current (checked in ${result.ms} ms)`);
}
