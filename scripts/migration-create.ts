// `npm run migration:create -- <name>`: writes prisma/migrations/<YYYYMMDDHHMMSS>_<name>/migration.sql
// with the SQL that takes the existing migrations to the state of prisma/schema.prisma.
//
// This replaces `prisma migrate dev --create-only`, which needs the native schema engine. The wasm engine
// needs a PostgreSQL server for its scratch shadow database: DATABASE_URL's server (nothing in that
// database is changed), else a local default, else an embedded PostgreSQL started just for this run.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { listMigrations } from '../src/db/migrations.js';
import { createMigrationSql, MIGRATION_LOCK_TOML } from '../src/db/schema-engine.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMA_PATH = path.join(ROOT, 'prisma', 'schema.prisma');
const MIGRATIONS_DIR = path.join(ROOT, 'prisma', 'migrations');
const DEFAULT_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
/** Keeps `<timestamp>_<name>` well inside migration_name's varchar(255). */
const MAX_NAME_LENGTH = 200;

async function main(): Promise<void> {
  const name = migrationName(process.argv.slice(2));
  const sql = await withScratchServer((databaseUrl) => createMigrationSql({ databaseUrl, schemaPath: SCHEMA_PATH, migrationsDir: MIGRATIONS_DIR }));
  if (sql === null) {
    console.log('no changes: prisma/schema.prisma and prisma/migrations already agree; nothing written.');
    return;
  }
  const file = await writeMigration(name, sql);
  console.log(`wrote ${path.relative(ROOT, file)}; review it before committing.`);
}

/** The user's name as Prisma would use it in a directory name: lower-case words joined by `_`. */
function migrationName(args: string[]): string {
  const name = args
    .join('_')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_NAME_LENGTH);
  if (!name) {
    console.error('usage: npm run migration:create -- <name>   (e.g. add_orders)');
    process.exit(2);
  }
  return name;
}

// ---------------------------------------------------------------------------------------------------
// The server for the shadow database
// ---------------------------------------------------------------------------------------------------

async function withScratchServer<T>(fn: (databaseUrl: string) => Promise<T>): Promise<T> {
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_SERVER_URL;
  const problem = await connectionProblem(databaseUrl);
  if (problem === null) return fn(databaseUrl);
  console.log(`cannot use PostgreSQL at ${redactPassword(databaseUrl)} (${problem}); starting an embedded PostgreSQL.`);
  return withEmbeddedPostgres(fn);
}

/** Why we cannot connect to `databaseUrl`, or null when we can. */
async function connectionProblem(databaseUrl: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined); // a dropped connection must not crash the script
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return code ? `${code}: ${message}` : message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs `fn` against the project's embedded PostgreSQL (the one `npm start` uses under DATA_DIR,
 * reused when a server already runs it), for machines without a PostgreSQL server.
 */
async function withEmbeddedPostgres<T>(fn: (databaseUrl: string) => Promise<T>): Promise<T> {
  const { startEmbeddedPostgres } = await import('../src/db/embedded.js');
  const handle = await startEmbeddedPostgres({ dataDir: process.env.DATA_DIR ?? path.join(ROOT, '.data') });
  try {
    return await fn(handle.adminUrl);
  } finally {
    await handle.stop();
  }
}

function redactPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<unparsable DATABASE_URL>';
  }
}

// ---------------------------------------------------------------------------------------------------
// Writing the migration
// ---------------------------------------------------------------------------------------------------

/** Writes the migration (and the lockfile Prisma expects, if missing); returns the migration.sql path. */
async function writeMigration(name: string, sql: string): Promise<string> {
  const directoryName = `${utcTimestamp(new Date())}_${name}`;
  await assertSortsLast(directoryName);

  await mkdir(MIGRATIONS_DIR, { recursive: true });
  await writeFile(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), MIGRATION_LOCK_TOML, { flag: 'wx' }).catch(ignoreExisting);
  const directory = path.join(MIGRATIONS_DIR, directoryName);
  await mkdir(directory); // fails if it exists: never overwrite a migration
  const file = path.join(directory, 'migration.sql');
  await writeFile(file, sql, { flag: 'wx' });
  return file;
}

/** Migrations run in name order, so a new one that sorts before an existing one would run too early. */
async function assertSortsLast(directoryName: string): Promise<void> {
  const last = (await listMigrations(MIGRATIONS_DIR)).at(-1);
  if (last && last.name >= directoryName) {
    throw new Error(`${directoryName} would not sort after the latest migration ${last.name}; check the clock.`);
  }
}

/** YYYYMMDDHHMMSS in UTC, like Prisma's migration directory names. */
function utcTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function ignoreExisting(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EEXIST') throw error;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
