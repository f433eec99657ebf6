// Shared by the fault tests: real server and worker processes (`npm start` / `npm run worker`
// entries under tsx, as test/jobs/worker-process.test.ts spawns the worker), a PostgreSQL cluster
// of the test's own that it may stop and start, and an HTTP client like startTestApp's.
//
// Every child and temp directory is registered here and removed by cleanup(), which each test
// file calls in afterAll, so a failing test leaves no process or cluster behind.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, urlFor, type EmbeddedHandle } from '../../src/db/embedded.js';
import { applyMigrations } from '../../src/db/migrations.js';
import { MIGRATIONS_DIR, PACKAGE_ROOT } from '../../src/paths.js';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { bootRuntime, createApp, type Runtime } from '../../src/app.js';
import { listen } from '../../src/http/listen.js';
import { startJobWorker, workerOptionsFrom } from '../../src/jobs/worker.js';
// The worker process imports every module's tasks and event subscribers through the schema.
import '../../src/schema.js';
import { mintApiKey } from '../../src/auth/accounts.js';
import { resolveConfig, type ConfigInput } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';
import type { RequestOptions, TestApp, TestResponse } from '../support/app.js';

export const AUTH_SECRET = 'test-secret-test-secret-test-secret-0123456789';

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
const clusters = new Set<OwnPostgres>();
const inProcess = new Set<{ close(): Promise<void> }>();

// Last resort if the test process ends without its afterAll (a crash, a killed run): no child
// outlives it. (Temp dirs and clusters need async work; cleanup() does that.)
process.once('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `commerce-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

/** Kills every child still running (SIGKILL), stops own clusters, removes temp dirs. */
export async function cleanup(): Promise<void> {
  for (const handle of inProcess) await handle.close().catch(() => undefined);
  inProcess.clear();
  await Promise.all(
    [...children].map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }),
  );
  children.clear();
  for (const cluster of clusters) await cluster.stop().catch(() => undefined);
  clusters.clear();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns something truthy; throws with the last value on timeout. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, everyMs = 100, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
}

// ---------------------------------------------------------------------------------------------
// A PostgreSQL cluster of the test's own (never the shared test server or DATABASE_URL's, which
// must not be stopped): its own data directory under the OS temp dir and its own port, kept
// across restarts so clients reconnect to the same address.

export interface OwnPostgres {
  port: number;
  adminUrl: string;
  url(database: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  running: boolean;
}

export async function ownPostgres(): Promise<OwnPostgres> {
  const dataDir = tempDir('pg');
  let handle: EmbeddedHandle = await startEmbeddedPostgres({ dataDir, fast: true });
  const cluster: OwnPostgres = {
    port: handle.port,
    adminUrl: handle.adminUrl,
    url: (database) => urlFor(handle.port, database),
    running: true,
    async stop() {
      if (!cluster.running) return;
      cluster.running = false;
      await handle.stop();
    },
    async start() {
      if (cluster.running) return;
      handle = await startEmbeddedPostgres({ dataDir, fast: true, port: cluster.port });
      cluster.running = true;
    },
  };
  clusters.add(cluster);
  return cluster;
}

/** A new database on `adminUrl`'s server with every migration applied. */
export async function migratedDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString(), MIGRATIONS_DIR);
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// Child processes.

export interface Child {
  kind: 'server' | 'worker';
  child: ChildProcess;
  pid: number;
  /** The server's base URL (servers only). */
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
}

export interface SpawnOptions {
  databaseUrl: string;
  /**
   * The same database without a pooler in between (DATABASE_DIRECT_URL), for LISTEN and the
   * migration lock: createTestDatabase's directUrl when the suite runs through PgBouncer. Never
   * inherited: the test process's DATABASE_DIRECT_URL names the shared server's maintenance
   * database, not this process's database (the worker would LISTEN there and hear nothing).
   */
  directUrl?: string;
  /** The config module the process reads (COMMERCE_CONFIG): a JSON file this writes. */
  config: Record<string, unknown>;
  env?: Record<string, string>;
  /** Longest wait for the process to report it is up (loaded machines are slow). */
  startTimeoutMs?: number;
}

/**
 * Starts src/server.ts or src/worker.ts under tsx, as `npm start` / `npm run worker` do, and
 * resolves once it logged that it is listening (server) or started (worker).
 */
export async function spawnProcess(kind: 'server' | 'worker', options: SpawnOptions): Promise<Child> {
  const dir = tempDir(kind);
  const configPath = path.join(dir, 'commerce.config.json');
  fs.writeFileSync(configPath, JSON.stringify({ env: 'test', logLevel: 'info', auth: { secret: AUTH_SECRET }, ...options.config }));
  // Vite puts BASE_URL='/' into the test process's environment; the server reads BASE_URL-like
  // variables as its public origin.
  const { BASE_URL: _vite, REDIS_URL: _redis, DATABASE_URL: _db, DATABASE_DIRECT_URL: _direct, ...inherited } = process.env;
  const direct: Record<string, string> = options.directUrl && options.directUrl !== options.databaseUrl ? { DATABASE_DIRECT_URL: options.directUrl } : {};
  const entry = path.join(PACKAGE_ROOT, kind === 'server' ? 'src/server.ts' : 'src/worker.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: PACKAGE_ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'test',
      DATABASE_URL: options.databaseUrl,
      ...direct,
      COMMERCE_CONFIG: configPath,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  let url = '';
  let ready = false;
  const onLine = (line: string) => {
    if (!line.startsWith('{')) return;
    try {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (kind === 'server' && entry.msg === 'commerce API listening' && entry.url) {
        url = entry.url;
        ready = true;
      }
      if (kind === 'worker' && entry.msg === 'job worker started') ready = true;
    } catch {
      /* not a log line */
    }
  };
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + (options.startTimeoutMs ?? 150_000);
  while (!ready) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${kind} exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${kind} did not start in time:\n${output}`);
    await sleep(50);
  }
  return {
    kind,
    child,
    pid: child.pid!,
    url,
    output: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
}

/** Log lines (parsed JSON) of a child at or above a pino level (40 warn, 50 error). */
export function logLines(child: { output(): string }, minLevel = 0): Array<Record<string, any>> {
  return child
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, any>;
      } catch {
        return null;
      }
    })
    .filter((line): line is Record<string, any> => line !== null && (line.level ?? 0) >= minLevel);
}

// ---------------------------------------------------------------------------------------------
// HTTP, shaped like startTestApp's request so test/orders/helpers.ts works against a child.

export async function request<T = any>(baseUrl: string, urlPath: string, options: RequestOptions & { timeoutMs?: number } = {}): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.cookie) headers.cookie = options.cookie;
  const response = await fetch(baseUrl + urlPath, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body: body as BodyInit | undefined,
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* keep the text */
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * A TestApp-shaped handle whose requests go to a child server (`target()` may change between
 * calls: a restarted server has a new port) and whose keys are minted in the test process.
 */
export function remoteApp(target: () => string, apiKey: TestApp['apiKey']): TestApp {
  return {
    get url() {
      return target();
    },
    request: (urlPath, options) => request(target(), urlPath, options),
    graphql: (query, variables, options = {}) => request(target(), '/graphql', { ...options, method: 'POST', body: { query, variables } }),
    apiKey,
  } as TestApp;
}

// ---------------------------------------------------------------------------------------------
// The test's own handle on the database: the runtime the CLI uses (no HTTP server), to mint API
// keys exactly as `commerce api-keys create` does and to read state after the fact.

export interface Operator {
  runtime: Runtime;
  organizationId: string;
  apiKey(scope?: string): Promise<string>;
  close(): Promise<void>;
}

export async function operator(databaseUrl: string, overrides: ConfigInput = {}, directUrl?: string): Promise<Operator> {
  const direct = directUrl && directUrl !== databaseUrl ? { databaseDirectUrl: directUrl } : {};
  const config = resolveConfig({ env: 'test', databaseUrl, ...direct, logLevel: 'silent', auth: { secret: AUTH_SECRET } }, overrides);
  const runtime = await bootRuntime(config, { migrate: false, logger: createLogger('silent') });
  const organizationId = (await runtime.services.organizations.defaultOrganization()).id;
  return {
    runtime,
    organizationId,
    apiKey: async (scope = 'admin') => (await mintApiKey({ auth: runtime.auth, config, db: runtime.db }, { scope, organizationId })).key,
    close: () => runtime.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// The same roles in the test process (quick variants): the app served by listen() and a job
// worker loop, each with its log captured, so the tests read them as they read a child's.

export interface InProcess {
  kind: 'server' | 'worker';
  pid: number;
  url: string;
  output(): string;
  alive(): boolean;
  close(): Promise<void>;
}

export async function startInProcess(kind: 'server' | 'worker', options: Omit<SpawnOptions, 'env' | 'startTimeoutMs'>): Promise<InProcess> {
  let output = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += String(chunk);
      done();
    },
  });
  const config = resolveConfig(
    {
      env: 'test',
      databaseUrl: options.databaseUrl,
      ...(options.directUrl && options.directUrl !== options.databaseUrl ? { databaseDirectUrl: options.directUrl } : {}),
      logLevel: 'info',
      auth: { secret: AUTH_SECRET },
      host: '127.0.0.1',
      port: 0,
    },
    options.config as ConfigInput,
  );
  const logger = pino({ level: 'info' }, sink);
  let closed = false;
  if (kind === 'server') {
    const app = await createApp(config, { migrate: false, logger });
    const server = await listen(app.http, 0, '127.0.0.1');
    const handle: InProcess = {
      kind,
      pid: process.pid,
      url: server.url,
      output: () => output,
      alive: () => !closed,
      async close() {
        if (closed) return;
        closed = true;
        await server.close(1000);
        await app.close();
      },
    };
    inProcess.add(handle);
    return handle;
  }
  const runtime = await bootRuntime(config, { migrate: false, logger });
  const worker = startJobWorker(runtime, workerOptionsFrom(config));
  const handle: InProcess = {
    kind,
    pid: process.pid,
    url: '',
    output: () => output,
    alive: () => !closed,
    async close() {
      if (closed) return;
      closed = true;
      await worker.stop();
      await runtime.close();
    },
  };
  inProcess.add(handle);
  return handle;
}
