// Loads the configuration: defaults ← config module ← environment ← explicit overrides.
// Boot fails here, with the offending key named, rather than deep inside a request.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkPluginList } from './plugin-list.js';
import { configSchema, DEFAULT_API_KEY_SCOPES, DEFAULT_ROLES, type Config, type ConfigInput } from './schema.js';

export type { Config, ConfigInput } from './schema.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const CONFIG_FILE_NAMES = ['commerce.config.ts', 'commerce.config.mjs', 'commerce.config.js', 'commerce.config.json'];

/** Reads the config module: COMMERCE_CONFIG, an explicit path, or commerce.config.* in cwd. */
export async function loadConfigFile(explicitPath?: string): Promise<ConfigInput> {
  const candidate = explicitPath ?? process.env.COMMERCE_CONFIG;
  let file: string | undefined;
  if (candidate) {
    file = path.resolve(candidate);
    if (!fs.existsSync(file)) throw new ConfigError(`config file not found: ${file}`);
  } else {
    file = CONFIG_FILE_NAMES.map((name) => path.resolve(name)).find((p) => fs.existsSync(p));
  }
  if (!file) return {};
  if (file.endsWith('.json')) return JSON.parse(fs.readFileSync(file, 'utf8')) as ConfigInput;
  const mod = (await import(pathToFileURL(file).href)) as { default?: ConfigInput | (() => ConfigInput) };
  const value = typeof mod.default === 'function' ? mod.default() : mod.default;
  return value ?? {};
}

/** Operational settings that twelve-factor deployments set through the environment. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ConfigInput {
  const out: ConfigInput = {};
  const envName = env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : undefined;
  if (envName) out.env = envName;
  if (env.PORT) out.port = Number(env.PORT);
  if (env.HOST) out.host = env.HOST;
  // PUBLIC_URL rather than BASE_URL: Vite and other tools set BASE_URL to '/' in the environment.
  const publicUrl = env.PUBLIC_URL ?? env.BETTER_AUTH_URL;
  if (publicUrl) out.baseUrl = publicUrl;
  if (env.DATABASE_URL) out.databaseUrl = env.DATABASE_URL;
  if (env.DATA_DIR) out.dataDir = env.DATA_DIR;
  if (env.SHUTDOWN_DRAIN_MS) out.shutdownDrainMs = Number(env.SHUTDOWN_DRAIN_MS);
  if (env.EXECUTION_SLOTS) out.executionSlots = { ...out.executionSlots, max: Number(env.EXECUTION_SLOTS) };
  if (env.EXECUTION_SLOTS_MIN_COST) out.executionSlots = { ...out.executionSlots, minCost: Number(env.EXECUTION_SLOTS_MIN_COST) };
  if (env.EXECUTION_SLOT_HOLD_MS) out.executionSlots = { ...out.executionSlots, holdMs: Number(env.EXECUTION_SLOT_HOLD_MS) };
  if (env.MEDIA_MAX_UPLOAD_BYTES) out.media = { ...out.media, maxUploadBytes: Number(env.MEDIA_MAX_UPLOAD_BYTES) };
  if (env.MEDIA_STORAGE) out.media = { ...out.media, storage: env.MEDIA_STORAGE as 'local' | 's3' };
  const s3 = {
    ...(env.S3_BUCKET ? { bucket: env.S3_BUCKET } : {}),
    ...(env.S3_REGION ? { region: env.S3_REGION } : {}),
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
    ...(env.S3_FORCE_PATH_STYLE ? { forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1' } : {}),
  };
  if (Object.keys(s3).length) out.media = { ...out.media, s3 };
  if (env.SEARCH_ENGINE) out.search = { ...out.search, engine: env.SEARCH_ENGINE as 'postgres' | 'meilisearch' };
  const meili = { ...(env.MEILISEARCH_HOST ? { host: env.MEILISEARCH_HOST } : {}), ...(env.MEILISEARCH_API_KEY ? { apiKey: env.MEILISEARCH_API_KEY } : {}) };
  if (Object.keys(meili).length) out.search = { ...out.search, meilisearch: meili };
  const shippo = { ...(env.SHIPPO_API_URL ? { apiUrl: env.SHIPPO_API_URL } : {}), ...(env.SHIPPO_API_TOKEN ? { apiToken: env.SHIPPO_API_TOKEN } : {}) };
  if (Object.keys(shippo).length) out.shipping = { ...out.shipping, carrier: { ...out.shipping?.carrier, shippo } };
  const adyen = {
    ...(env.ADYEN_API_KEY ? { apiKey: env.ADYEN_API_KEY } : {}),
    ...(env.ADYEN_MERCHANT_ACCOUNT ? { merchantAccount: env.ADYEN_MERCHANT_ACCOUNT } : {}),
    ...(env.ADYEN_HMAC_KEY ? { hmacKey: env.ADYEN_HMAC_KEY } : {}),
    ...(env.ADYEN_API_BASE ? { apiBase: env.ADYEN_API_BASE } : {}),
  };
  if (Object.keys(adyen).length) out.payments = { ...out.payments, adyen: { ...out.payments?.adyen, ...adyen } };
  if (env.REDIS_URL) out.redisUrl = env.REDIS_URL;
  if (env.DATABASE_DIRECT_URL) out.databaseDirectUrl = env.DATABASE_DIRECT_URL;
  if (env.DATABASE_REPLICA_URLS)
    out.database = {
      ...out.database,
      replicaUrls: env.DATABASE_REPLICA_URLS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  if (env.DATABASE_REPLICA_MAX_LAG_MS) out.database = { ...out.database, replicaMaxLagMs: Number(env.DATABASE_REPLICA_MAX_LAG_MS) };
  if (env.DATABASE_READ_YOUR_WRITES_MS) out.database = { ...out.database, readYourWritesMs: Number(env.DATABASE_READ_YOUR_WRITES_MS) };
  if (env.RESPONSE_CACHE) out.cache = { ...out.cache, enabled: !['false', '0', 'off'].includes(env.RESPONSE_CACHE.toLowerCase()) };
  if (env.METRICS_TOKEN) out.metrics = { ...out.metrics, token: env.METRICS_TOKEN };
  if (env.METRICS_ENABLED) out.metrics = { ...out.metrics, enabled: !['false', '0', 'off'].includes(env.METRICS_ENABLED.toLowerCase()) };
  if (env.METRICS_PORT) out.metrics = { ...out.metrics, port: Number(env.METRICS_PORT) };
  if (env.METRICS_SQL_STATEMENTS_SAMPLE_RATE) out.metrics = { ...out.metrics, sqlStatementsSampleRate: Number(env.METRICS_SQL_STATEMENTS_SAMPLE_RATE) };
  if (env.LOG_LEVEL) out.logLevel = env.LOG_LEVEL as Config['logLevel'];
  const secret = env.BETTER_AUTH_SECRET ?? env.AUTH_SECRET;
  if (secret) out.auth = { ...out.auth, secret };
  if (env.CORS_ORIGINS)
    out.cors = {
      origins: env.CORS_ORIGINS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  if (env.TRUSTED_ORIGINS)
    out.auth = {
      ...out.auth,
      trustedOrigins: env.TRUSTED_ORIGINS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Deep merge for config objects: later wins, arrays and functions are replaced whole. */
export function mergeConfig<T extends Record<string, unknown>>(...layers: Array<Partial<T> | undefined>): T {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      out[key] = isPlainObject(value) && isPlainObject(out[key]) ? mergeConfig(out[key] as T, value as Partial<T>) : value;
    }
  }
  return out as T;
}

/** Validates a merged config input; throws ConfigError naming each bad key. */
export function parseConfig(input: ConfigInput): Config {
  const result = configSchema.safeParse(input);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/**
 * Defaults that merge with what the user declares rather than being replaced by it: declaring
 * one extra API-key scope or one role keeps the built-in ones (a same-named entry wins).
 */
function mergeableDefaults(): ConfigInput {
  return { apiKeyScopes: structuredClone(DEFAULT_API_KEY_SCOPES), auth: { roles: structuredClone(DEFAULT_ROLES) } };
}

/** Applies config.plugins in list order; each is a function config → config. */
export function applyPlugins(input: ConfigInput): ConfigInput {
  // Duplicate ids, missing or misordered dependencies and twice-claimed task slugs fail here.
  checkPluginList(input.plugins ?? []);
  let config = input;
  for (const plugin of input.plugins ?? []) config = (plugin as (c: ConfigInput) => ConfigInput)(config);
  return config;
}

export function resolveConfig(...layers: ConfigInput[]): Config {
  return parseConfig(applyPlugins(mergeConfig<ConfigInput>(mergeableDefaults(), ...layers)));
}

export async function loadConfig(overrides: ConfigInput = {}, options: { configPath?: string } = {}): Promise<Config> {
  const fileConfig = await loadConfigFile(options.configPath);
  return resolveConfig(fileConfig, configFromEnv(), overrides);
}
