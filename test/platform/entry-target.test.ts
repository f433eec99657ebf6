// `npm start` runs the compiled build only when nothing needs the source: a stale build, a config
// module (TypeScript, or importing plugins/ and src/) or COMMERCE_FROM_SOURCE=1 keep it on
// src/ through tsx. A config module under dist/ once failed at boot (ERR_UNKNOWN_FILE_EXTENSION),
// and a plugin it enabled would have registered into a second copy of src/ the server never read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, no declarations
import { entryTarget } from '../../scripts/entry-target.mjs';

type Target = { kind: 'compiled' | 'source'; file: string; reason: string };
const choose = entryTarget as (options: { root: string; entry: string; env: NodeJS.ProcessEnv; cwd: string }) => Target;

/** A package root with src/server.ts and, unless told otherwise, a build newer than it. */
function packageRoot(options: { built: boolean; sourceNewer?: boolean }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-entry-'));
  fs.mkdirSync(path.join(root, 'src'));
  fs.mkdirSync(path.join(root, 'dist'));
  const source = path.join(root, 'src', 'server.ts');
  fs.writeFileSync(source, 'export {};\n');
  if (options.built) {
    fs.writeFileSync(path.join(root, 'dist', 'server.js'), 'export {};\n');
    fs.writeFileSync(path.join(root, 'dist', '.build-stamp'), 'now\n');
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 60_000);
    fs.utimesSync(source, past, past);
    fs.utimesSync(path.join(root, 'dist', '.build-stamp'), new Date(), new Date());
    if (options.sourceNewer) fs.utimesSync(source, future, future);
  }
  return root;
}

function emptyDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-cwd-'));
}

describe('which entry npm start runs', () => {
  it('runs dist/ when the build is current and there is no config module', () => {
    const root = packageRoot({ built: true });
    const target = choose({ root, entry: 'server', env: {}, cwd: emptyDir() });
    expect(target).toMatchObject({ kind: 'compiled', file: path.join(root, 'dist', 'server.js') });
  });

  it('runs the source when no build exists or a source file is newer than it', () => {
    expect(choose({ root: packageRoot({ built: false }), entry: 'server', env: {}, cwd: emptyDir() }).kind).toBe('source');
    const stale = packageRoot({ built: true, sourceNewer: true });
    expect(choose({ root: stale, entry: 'server', env: {}, cwd: emptyDir() })).toMatchObject({ kind: 'source', file: path.join(stale, 'src', 'server.ts') });
  });

  it.each(['commerce.config.ts', 'commerce.config.mjs', 'commerce.config.js'])('runs the source when %s is in the working directory', (name) => {
    const cwd = emptyDir();
    fs.writeFileSync(path.join(cwd, name), 'export default {};\n');
    const target = choose({ root: packageRoot({ built: true }), entry: 'server', env: {}, cwd });
    expect(target.kind).toBe('source');
    expect(target.reason).toContain(name);
  });

  it('follows COMMERCE_CONFIG: a module keeps the source, a JSON file runs compiled', () => {
    const root = packageRoot({ built: true });
    const dir = emptyDir();
    fs.writeFileSync(path.join(dir, 'shop.config.ts'), 'export default {};\n');
    fs.writeFileSync(path.join(dir, 'shop.json'), '{}\n');
    expect(choose({ root, entry: 'server', env: { COMMERCE_CONFIG: path.join(dir, 'shop.config.ts') }, cwd: emptyDir() }).kind).toBe('source');
    expect(choose({ root, entry: 'server', env: { COMMERCE_CONFIG: path.join(dir, 'shop.json') }, cwd: emptyDir() }).kind).toBe('compiled');
    // A JSON config in the working directory is settings only: compiled.
    const cwd = emptyDir();
    fs.writeFileSync(path.join(cwd, 'commerce.config.json'), '{}\n');
    expect(choose({ root, entry: 'server', env: {}, cwd }).kind).toBe('compiled');
  });

  it('COMMERCE_FROM_SOURCE=1 forces the source', () => {
    expect(choose({ root: packageRoot({ built: true }), entry: 'worker', env: { COMMERCE_FROM_SOURCE: '1' }, cwd: emptyDir() }).kind).toBe('source');
  });
});
