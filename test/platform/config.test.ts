// Boot-time configuration checks, as an operator meets them: the server refuses to start.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config/index.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

const run = promisify(execFile);
// Each case starts real processes (tsx, Prisma, the database): slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 120_000 });

describe('removed development key settings', () => {
  it.each([
    ['enableDevKey', true],
    ['devKey', 'dev-123'],
  ])('auth.%s makes boot fail with a clear message', async (name, value) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-config-'));
    const file = path.join(dir, 'commerce.config.json');
    fs.writeFileSync(file, JSON.stringify({ auth: { [name]: value } }));
    const result = await run(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, COMMERCE_CONFIG: file, PORT: '0', DATABASE_URL: 'postgresql://127.0.0.1:1/none', DATABASE_DIRECT_URL: '' },
      timeout: 110_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`auth.${name}`);
    expect(result.stderr).toContain('removed');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('config validation', () => {
  it('names the offending key', async () => {
    await expect(loadConfig({ port: -1 } as never)).rejects.toThrow(ConfigError);
    await expect(loadConfig({ port: -1 } as never)).rejects.toThrow(/port/);
  });

  it('refuses two API-key scopes with one prefix (the prefix names the scope)', async () => {
    const scope = { prefix: 'same_', permissions: { catalog: ['read'] } };
    await expect(loadConfig({ apiKeyScopes: { a: scope, b: scope } })).rejects.toThrow(/prefix same_ is already used/);
  });

  it('requires an auth secret in production', async () => {
    const { resolveAuthSecret } = await import('../../src/auth/secret.js');
    const config = await loadConfig({ env: 'production' });
    expect(() => resolveAuthSecret(config)).toThrow(/BETTER_AUTH_SECRET/);
  });
});

describe('storage and search adapters', () => {
  it('refuses S3 storage without a bucket and Meilisearch without a host, naming the key', async () => {
    await expect(loadConfig({ media: { storage: 's3' } })).rejects.toThrow(/media\.s3\.bucket/);
    await expect(loadConfig({ search: { engine: 'meilisearch' } })).rejects.toThrow(/search\.meilisearch\.host/);
  });

  it('reads the adapters from the environment', async () => {
    const { configFromEnv, resolveConfig } = await import('../../src/config/index.js');
    const config = resolveConfig(
      configFromEnv({
        MEDIA_STORAGE: 's3',
        S3_BUCKET: 'shop-media',
        S3_REGION: 'eu-central-1',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: 'true',
        SEARCH_ENGINE: 'meilisearch',
        MEILISEARCH_HOST: 'http://127.0.0.1:7700',
        MEILISEARCH_API_KEY: 'key',
      }),
    );
    expect(config.media).toMatchObject({
      storage: 's3',
      s3: { bucket: 'shop-media', region: 'eu-central-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, keyPrefix: '' },
    });
    expect(config.search).toEqual({ engine: 'meilisearch', meilisearch: { host: 'http://127.0.0.1:7700', apiKey: 'key', indexUid: 'catalog', timeoutMs: 5000 } });
    expect(resolveConfig({}).media.storage).toBe('local');
    expect(resolveConfig({}).search.engine).toBe('postgres');
    expect(resolveConfig(configFromEnv({ SHIPPO_API_TOKEN: 'shippo_live_x', SHIPPO_API_URL: 'http://127.0.0.1:9999' })).shipping.carrier.shippo).toEqual({
      apiUrl: 'http://127.0.0.1:9999',
      apiToken: 'shippo_live_x',
    });
    expect(resolveConfig({}).shipping.carrier).toMatchObject({ timeoutMs: 3000, shippo: { apiUrl: 'https://api.goshippo.com' } });
  });
});

describe('API-key scopes from config and plugins', () => {
  const posScope = { prefix: 'pos_shift_', description: 'Per-shift POS key', permissions: { pos: ['operate'] }, keyExpiration: { minExpiresIn: 1 / 96, maxExpiresIn: 1 } };

  it('keeps the built-in scopes when the user declares another', async () => {
    const config = await loadConfig({ apiKeyScopes: { reporting: { prefix: 'cs_rep_', permissions: { analytics: ['read'] } } } });
    expect(Object.keys(config.apiKeyScopes).sort()).toEqual(['admin', 'reporting', 'storefront']);
  });

  it('merges plugin scopes in list order, and a same-named user entry wins', async () => {
    const { definePlugin } = await import('../../src/plugins/index.js');
    const pos = definePlugin({ id: 'pos', version: '1.0.0', apiKeyScopes: { pos: posScope } });
    const withPlugin = await loadConfig({ plugins: [pos] });
    expect(withPlugin.apiKeyScopes.pos).toMatchObject({ prefix: 'pos_shift_', keyExpiration: { minExpiresIn: 1 / 96 } });
    const userWins = await loadConfig({ plugins: [pos], apiKeyScopes: { pos: { ...posScope, prefix: 'mine_' } } });
    expect(userWins.apiKeyScopes.pos!.prefix).toBe('mine_');
    expect(() => definePlugin({ id: 'bad', version: 'one' })).toThrow(/semantic version/);
  });
});
