// The `commerce` command, run as a user runs it (the package bin in a child process), against
// the same database as a running server.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { startTestApp, type TestApp } from '../support/app.js';

const run = promisify(execFile);
// Each case starts real processes (tsx, Prisma, the database): slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 120_000 });
let t: TestApp;
let env: NodeJS.ProcessEnv;

async function commerce(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(PACKAGE_ROOT, 'bin/commerce.js'), ...args], { env, cwd: PACKAGE_ROOT, timeout: 110_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  t = await startTestApp();
  // The CLI signs the keys it mints with the server's secret (src/auth/key-signature.ts), as a
  // deployment's CLI and server share BETTER_AUTH_SECRET (or DATA_DIR's generated one).
  // DATABASE_DIRECT_URL: this database without the pooler (the inherited one names the server's
  // maintenance database, where the CLI's migrations would go).
  env = { ...process.env, DATABASE_URL: t.app.databaseUrl, DATABASE_DIRECT_URL: t.app.directUrl, BETTER_AUTH_SECRET: t.app.config.auth.secret, LOG_LEVEL: 'silent' };
});
afterAll(() => t?.close());

describe('commerce --help', () => {
  it('opens no database connection and imports neither the config nor the app', async () => {
    // A TCP server standing in for PostgreSQL counts connections; a module hook logs every
    // module the process loads.
    let connections = 0;
    const db = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => db.listen(0, '127.0.0.1', resolve));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-help-'));
    const log = path.join(dir, 'loaded.txt');
    const hook = path.join(dir, 'hook.mjs');
    fs.writeFileSync(
      hook,
      `import fs from 'node:fs';\nexport async function load(url, context, next) { fs.appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`,
    );
    const register = path.join(dir, 'register.mjs');
    fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
    try {
      const port = (db.address() as net.AddressInfo).port;
      const { stdout } = await run(process.execPath, ['--import', pathToFileURL(register).href, path.join(PACKAGE_ROOT, 'bin/commerce.js'), '--help'], {
        env: { ...env, DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/none` },
        cwd: PACKAGE_ROOT,
        timeout: 60_000,
      });
      expect(stdout).toContain('api-keys');
      const loaded = fs.readFileSync(log, 'utf8');
      expect(loaded).toMatch(/\/cli\.(ts|js)\n/);
      for (const heavy of ['/app.', '/config/index.', '/db/client.', '/generated/prisma/', '/http/', '/graphql/', 'better-auth']) expect(loaded, heavy).not.toContain(heavy);
      expect(connections).toBe(0);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('commerce api-keys', () => {
  it('scopes lists the declared scopes', async () => {
    const res = await commerce('api-keys', 'scopes', '--json');
    expect(res.code).toBe(0);
    const scopes = JSON.parse(res.stdout);
    expect(Object.keys(scopes)).toEqual(expect.arrayContaining(['admin', 'storefront']));
    expect(scopes.admin.permissions).toEqual({ '*': ['*'] });
  });

  it('create --json prints {"key"} last; the key works against the running server', async () => {
    const res = await commerce('api-keys', 'create', '--scope', 'admin', '--name', 'ci', '--json');
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    const { key } = JSON.parse(lines[lines.length - 1]!);
    expect(key).toMatch(/^cs_admin_/);
    expect((await t.request('/api/settings', { apiKey: key })).status).toBe(200);
    const storefront = await commerce('api-keys', 'create', '--scope', 'storefront', '--json');
    const storeKey = JSON.parse(storefront.stdout.trim().split('\n').pop()!).key;
    expect((await t.request('/api/settings', { apiKey: storeKey })).status).toBe(403);
    // The dashboard's API-keys list tells them apart: a name (given, or "CLI key <date>"
    // without --name), and a start of the whole prefix plus six random characters.
    const listed = (await t.request('/api/api-keys?limit=100', { apiKey: key })).body.data as Array<{ id: string; name: string | null; start: string }>;
    const adminId = JSON.parse(lines[0]!).id;
    const storeId = JSON.parse(storefront.stdout.trim().split('\n')[0]!).id;
    expect(listed.find((k) => k.id === adminId)).toMatchObject({ name: 'ci', start: key.slice(0, 'cs_admin_'.length + 6) });
    const unnamed = listed.find((k) => k.id === storeId)!;
    expect(unnamed.name).toMatch(/^CLI key \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(unnamed.start).toBe(storeKey.slice(0, 'cs_store_'.length + 6));
  });

  it('refuses a ttl under 86400 seconds and an unknown scope', async () => {
    const short = await commerce('api-keys', 'create', '--scope', 'admin', '--ttl', '3600');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('86400');
    const unknown = await commerce('api-keys', 'create', '--scope', 'nope');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown scope nope');
  });

  it('create --ttl --user --save-env --env-var writes the key for that user into the env file', async () => {
    const staff = await commerce('users', 'create', '--email', 'ops@example.com', '--password', 'correct-horse-battery', '--name', 'Ops', '--role', 'admin');
    expect(staff.code, staff.stderr).toBe(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-cli-'));
    const file = path.join(dir, '.env');
    fs.writeFileSync(file, 'OTHER=1\nSHOP_KEY=old\n');
    const res = await commerce('api-keys', 'create', '--scope', 'admin', '--ttl', '86400', '--user', 'ops@example.com', '--save-env', file, '--env-var', 'SHOP_KEY');
    expect(res.code, res.stderr).toBe(0);
    const saved = fs.readFileSync(file, 'utf8');
    expect(saved).toMatch(/^OTHER=1\nSHOP_KEY=cs_admin_\w+\n$/);
    const key = saved.split('SHOP_KEY=')[1]!.trim();
    expect(res.stdout).toContain(key);
    expect((await t.request('/api/settings', { apiKey: key })).status).toBe(200);
    const row = await t.app.db.apikey.findFirst({ where: { referenceId: (await t.app.db.user.findUnique({ where: { email: 'ops@example.com' } }))!.id } });
    const lifetime = (row!.expiresAt!.getTime() - row!.createdAt.getTime()) / 1000;
    expect(Math.round(lifetime)).toBe(86400);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('commerce users', () => {
  it('create makes a user with the role, who signs in over HTTP', async () => {
    const res = await commerce('users', 'create', '--email', 'clerk@example.com', '--password', 'correct-horse-battery', '--name', 'Clerk', '--role', 'staff', '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ email: 'clerk@example.com', role: 'staff' });
    const signIn = await t.request('/api/auth/sign-in/email', { body: { email: 'clerk@example.com', password: 'correct-horse-battery' } });
    expect(signIn.status).toBe(200);
    expect((await t.request('/api/settings', { bearer: signIn.body.token })).status).toBe(403);
  });

  it('refuses an unknown role', async () => {
    const res = await commerce('users', 'create', '--email', 'x@example.com', '--password', 'correct-horse-battery', '--name', 'X', '--role', 'wizard');
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('unknown role wizard');
  });
});

describe('commerce migrate and seed', () => {
  it('migrate reports an up-to-date database', async () => {
    const res = await commerce('migrate');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('up to date');
  });

  it('seed creates the default settings once', async () => {
    const first = await commerce('seed');
    expect(first.code, first.stderr).toBe(0);
    const key = await t.apiKey('admin');
    expect((await t.request('/api/settings/general', { apiKey: key })).body.data).toEqual({ currency: 'USD', timezone: 'UTC', locale: 'en' });
    const second = await commerce('seed');
    expect(second.code).toBe(0);
  });
});
