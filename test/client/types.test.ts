// `tsc --strict` compile test: test/client/fixtures/storefront.ts uses the SDK through its
// package name (@commerce-service/client, mapped to client/src) and asserts that responses, bodies and errors are
// real types. A second compile, against a copy of the SDK whose generated types degrade to
// `any`, must fail: the check can fail.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';

const run = promisify(execFile);
const TSC = path.join(PACKAGE_ROOT, 'node_modules/typescript/bin/tsc');
const FIXTURES = path.join(PACKAGE_ROOT, 'test/client/fixtures');
const scratch = path.join(FIXTURES, `.degraded-${process.pid}`);

async function compile(project: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [TSC, '-p', project], { cwd: PACKAGE_ROOT });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('SDK types under tsc --strict', () => {
  it('compile a storefront script with every response and body typed', async () => {
    const result = await compile(path.join(FIXTURES, 'tsconfig.json'));
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  }, 180_000);

  it('fail to compile when the generated types degrade to any', async () => {
    fs.mkdirSync(scratch, { recursive: true });
    fs.cpSync(path.join(PACKAGE_ROOT, 'client/src'), path.join(scratch, 'client'), { recursive: true });
    fs.writeFileSync(path.join(scratch, 'client/generated/api.ts'), 'export type paths = any;\nexport type components = any;\n');
    const source = fs.readFileSync(path.join(FIXTURES, 'storefront.ts'), 'utf8').replace("'@commerce-service/client'", "'./client/index.js'");
    fs.writeFileSync(path.join(scratch, 'storefront.ts'), source);
    const config = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'tsconfig.json'), 'utf8'));
    delete config.compilerOptions.paths;
    fs.writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify(config));
    const result = await compile(path.join(scratch, 'tsconfig.json'));
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/storefront\.ts/);
  }, 180_000);

  it('compile every SDK snippet of README.md and client/README.md (no undeclared names)', async () => {
    // Each ```ts block that imports the SDK becomes a module of its own, compiled strictly against
    // client/src (Node types too: one snippet passes node:fs/promises to jsonFileStorage).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-snippets-'));
    try {
      const snippets = ['README.md', 'client/README.md'].flatMap((file) =>
        [...fs.readFileSync(path.join(PACKAGE_ROOT, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((code) => code.includes('@commerce-service/client')),
      );
      expect(snippets.length).toBeGreaterThanOrEqual(5);
      const files = snippets.map((code, i) => {
        const name = `snippet-${i}.ts`;
        fs.writeFileSync(path.join(dir, name), `${code}\nexport {};\n`);
        return name;
      });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            lib: ['ES2022', 'DOM'],
            types: ['node'],
            typeRoots: [path.join(PACKAGE_ROOT, 'node_modules/@types')],
            paths: {
              '@commerce-service/client': [path.join(PACKAGE_ROOT, 'client/src/index.ts')],
              '@commerce-service/client/codegen': [path.join(PACKAGE_ROOT, 'client/src/codegen.ts')],
            },
          },
          files,
        }),
      );
      const result = await compile(path.join(dir, 'tsconfig.json'));
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
