// Boots the real app on a fresh database for one test file and talks HTTP to it. Tests
// authenticate the way users do: sign up / sign in over HTTP, or API keys minted the way the
// CLI mints them.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { resolveConfig, type ConfigInput } from '../../src/config/index.js';
import { createUser, mintApiKey } from '../../src/auth/accounts.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { listen, type Listening } from '../../src/http/listen.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { buildSchema } from '../../src/schema.js';
import { assertGraphqlAnswer } from './contract-graphql.js';
import { documentOf, restContract } from './contract-rest.js';
import { flushContractCounts } from './contract-counts.js';

export const TEST_BASE_URL = 'http://localhost:3000';

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The server itself for a test database: when the suite runs through PgBouncer (.ci/run sets
 * DATABASE_URL to the pooler and DATABASE_DIRECT_URL to PostgreSQL), DATABASE_DIRECT_URL's server
 * with that database; otherwise `url` itself.
 */
export function directUrlFor(url: string, database: string): string {
  return process.env.DATABASE_URL && process.env.DATABASE_DIRECT_URL ? databaseUrl(process.env.DATABASE_DIRECT_URL, database) : url;
}

/** A new database cloned from the migrated template (`directUrl`: the same database without the pooler). */
export async function createTestDatabase(): Promise<{ url: string; directUrl: string; name: string; drop(): Promise<void> }> {
  const adminUrl = inject('adminUrl');
  const template = inject('templateDatabase');
  const name = template.replace('_tpl_', '_db_') + `_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${client.escapeIdentifier(name)} template ${client.escapeIdentifier(template)}`);
  } finally {
    await client.end();
  }
  return {
    url: databaseUrl(adminUrl, name),
    directUrl: directUrlFor(databaseUrl(adminUrl, name), name),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${c.escapeIdentifier(name)} with (force)`).finally(() => c.end());
    },
  };
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  /** Raw body text, sent as-is (malformed JSON tests). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  apiKey?: string;
  bearer?: string;
  cookie?: string;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestApp {
  url: string;
  app: App;
  /** The test database's name (fault tests drop it). */
  databaseName: string;
  request<T = any>(path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<TestResponse<{ data?: T; errors?: any[] }>>;
  /** Creates a user (as `commerce users create` does) and signs in over HTTP. */
  signIn(role: string, options?: { email?: string; organizationId?: string }): Promise<{ token: string; cookie: string; userId: string; email: string }>;
  /** Mints an API key (as `commerce api-keys create` does). */
  apiKey(scope?: string, options?: { organizationId?: string }): Promise<string>;
  /** SQL statements sent so far (query-count probes read deltas). */
  statements(): number;
  /** Round trips to PostgreSQL so far, BEGIN and SAVEPOINTs included (round-trip probes read deltas). */
  roundTrips(): number;
  close(): Promise<void>;
}

export async function startTestApp(overrides: ConfigInput = {}, options: { logger?: Logger; port?: number } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = resolveConfig(
    {
      env: 'test',
      baseUrl: TEST_BASE_URL,
      databaseUrl: database.url,
      // Through PgBouncer (.ci/run): LISTEN and migrations need the server itself.
      ...(database.directUrl !== database.url ? { databaseDirectUrl: database.directUrl } : {}),
      dataDir: path.join(PACKAGE_ROOT, '.test-data'),
      logLevel: 'silent',
      auth: { secret: 'test-secret-test-secret-test-secret-0123456789' },
      // Every test signs its users in from 127.0.0.1: the per-address sign-in budget would
      // throttle the suite itself. Tests of that budget set their own.
      rateLimit: { authAddress: { points: 1_000_000, durationSeconds: 60 } },
    },
    overrides,
  );
  const app = await createApp(config, { migrate: false, countStatements: true, logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent') });
  let server: Listening;
  try {
    server = await listen(app.http, options.port ?? 0, '127.0.0.1');
  } catch (error) {
    await app.close();
    throw error;
  }
  let users = 0;
  // Every /api answer below is checked against the /api/doc this app serves (contract-rest.ts).
  const contract = restContract(() => documentOf(server.url));

  async function request<T>(path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
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
    const method = options.method ?? (body === undefined ? 'GET' : 'POST');
    const response = await fetch(server.url + path, { method, headers, body: body as BodyInit | undefined });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    await contract.check({ method, path, status: response.status, headers: response.headers, body: parsed, text });
    // Every GraphQL answer, whichever helper sent it, is checked against the schema the app runs
    // (contract-graphql.ts).
    const operation = options.body as { query?: unknown } | undefined;
    if (path.split('?')[0] === '/graphql' && method === 'POST' && operation && typeof operation.query === 'string') {
      assertGraphqlAnswer(buildSchema(), operation as { query: string }, parsed);
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  return {
    url: server.url,
    app,
    databaseName: database.name,
    request,
    // request() checks the answer against the schema the app runs (contract-graphql.ts).
    graphql: (query, variables, options = {}) => request<{ data?: any; errors?: any[] }>('/graphql', { ...options, method: 'POST', body: { query, variables } }),
    async signIn(role, options = {}) {
      users += 1;
      const email = options.email ?? `${role}${users}-${randomBytes(3).toString('hex')}@example.com`;
      const organizationId = options.organizationId ?? (await app.services.organizations.defaultOrganization()).id;
      const user = await createUser({ auth: app.auth, config }, { email, password: 'correct-horse-battery', name: `${role} ${users}`, role, organizationId });
      const response = await request<{ token: string }>('/api/auth/sign-in/email', { body: { email, password: 'correct-horse-battery' } });
      if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${response.text}`);
      const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
      return { token: response.body.token, cookie, userId: user.id, email };
    },
    async apiKey(scope = 'admin', options = {}) {
      const organizationId = options.organizationId ?? (await app.services.organizations.defaultOrganization()).id;
      const minted = await mintApiKey({ auth: app.auth, config, db: app.db }, { scope, organizationId });
      return minted.key;
    },
    statements: () => app.counter.statements,
    roundTrips: () => app.counter.roundTrips,
    async close() {
      flushContractCounts();
      await server.close();
      await app.close();
      await database.drop();
    },
  };
}
