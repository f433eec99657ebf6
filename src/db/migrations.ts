// Applies prisma/migrations/<name>/migration.sql with plain `pg`, so the server, the worker and the
// CLI can migrate without Prisma's native schema engine (which cannot be downloaded everywhere).
//
// Bookkeeping goes into Prisma's own `_prisma_migrations` table with Prisma's exact columns and
// checksums, so `prisma migrate deploy` / `migrate status` keep working against the same database.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export const DEFAULT_MIGRATIONS_DIR = 'prisma/migrations';

/**
 * The advisory lock key Prisma's schema engine takes (`SELECT pg_advisory_lock(72707369)`).
 * Reusing it means our runner, other instances of it and `prisma migrate deploy` all exclude each other.
 */
export const MIGRATION_ADVISORY_LOCK_KEY = 72707369;

/** One migration directory on disk. */
export interface MigrationFile {
  /** Directory name, e.g. `20250101120000_init`; also the `migration_name` recorded in the database. */
  name: string;
  /** Absolute path of the migration.sql file. */
  file: string;
  sql: string;
  /** sha256 hex of the file content, as Prisma records it. */
  checksum: string;
}

export interface ApplyMigrationsResult {
  /** Migrations run by this call, in order. */
  applied: string[];
  /** Migrations that were already recorded as applied. */
  skipped: string[];
}

/** Row of `_prisma_migrations` that we need for deciding what to do. */
interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

// Exactly the DDL Prisma's schema engine uses for PostgreSQL.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Lists the migrations in `dir` in the order they must run (lexical order of directory names, like
 * Prisma). Returns [] when the directory does not exist yet. Throws when a migration directory has no
 * migration.sql: silently skipping it would let later migrations run before it.
 */
export async function listMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const baseDir = path.resolve(dir);
  const names = await migrationDirectoryNames(baseDir);
  return Promise.all(names.map((name) => readMigration(baseDir, name)));
}

async function migrationDirectoryNames(baseDir: string): Promise<string[]> {
  try {
    const entries = await readdir(baseDir, { withFileTypes: true });
    // Plain code-unit comparison (not localeCompare): the order must not depend on the machine's locale.
    return entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function readMigration(baseDir: string, name: string): Promise<MigrationFile> {
  const file = path.join(baseDir, name, 'migration.sql');
  let sql: string;
  try {
    sql = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`Migration directory ${name} has no migration.sql (${file}).`, { cause: error });
    }
    throw error;
  }
  return { name, file, sql, checksum: sha256Hex(sql) };
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Whether `sql` matches a recorded checksum. Like Prisma, line-ending conversions by git
 * (LF <-> CRLF) do not count as an edit.
 */
function checksumMatches(sql: string, recorded: string): boolean {
  const variants = [sql, sql.replaceAll('\r\n', '\n'), sql.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n')];
  return variants.some((variant) => sha256Hex(variant) === recorded);
}

/**
 * Applies every migration in `migrationsDir` that the database has not recorded yet, in lexical order,
 * each in its own transaction together with its `_prisma_migrations` row (so a failing migration leaves
 * neither schema changes nor a half-written record behind).
 *
 * `target` is a connection string or an idle, connected pg client (not inside a transaction); a
 * client passed in is left open. Throws before applying anything when an applied migration was edited
 * or when Prisma recorded a failed migration that has not been resolved.
 */
export async function applyMigrations(target: string | pg.ClientBase, migrationsDir: string = DEFAULT_MIGRATIONS_DIR): Promise<ApplyMigrationsResult> {
  // Read the files first: a broken migrations directory should fail before we touch the database.
  const migrations = await listMigrations(migrationsDir);
  return withClient(target, (client) =>
    withAdvisoryLock(client, async () => {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const applied = appliedChecksums(await readMigrationRows(client));
      assertNotEdited(migrations, applied);

      const result: ApplyMigrationsResult = { applied: [], skipped: [] };
      for (const migration of migrations) {
        if (applied.has(migration.name)) {
          result.skipped.push(migration.name);
          continue;
        }
        await applyMigration(client, migration);
        result.applied.push(migration.name);
      }
      return result;
    }),
  );
}

async function withClient<T>(target: string | pg.ClientBase, fn: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  if (typeof target !== 'string') return fn(target);
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Holds the session-level advisory lock for the whole run, so a server, a worker and the CLI starting
 * at the same time apply each migration once: the others wait, then find everything applied.
 * Waits without a timeout on purpose, since a long migration must not make the other processes fail.
 */
async function withAdvisoryLock<T>(client: pg.ClientBase, fn: () => Promise<T>): Promise<T> {
  const unlock = () => client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_ADVISORY_LOCK_KEY]);
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_ADVISORY_LOCK_KEY]);
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    // Report the migration error, not a follow-up failure to unlock on a broken connection.
    await unlock().catch(() => undefined);
    throw error;
  }
  await unlock();
  return result;
}

async function readMigrationRows(client: pg.ClientBase): Promise<MigrationRow[]> {
  const { rows } = await client.query<MigrationRow>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at');
  return rows;
}

/**
 * Checksums of the successfully applied migrations, by name. Rolled-back rows are history only.
 * A row that neither finished nor was rolled back is a failed `prisma migrate deploy`; like Prisma
 * (error P3009) we refuse to continue until someone has looked at the database.
 */
function appliedChecksums(rows: MigrationRow[]): Map<string, string> {
  const failed = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed.length > 0) {
    const names = failed.map((row) => row.migration_name).join(', ');
    throw new Error(
      `Migration(s) ${names} failed in an earlier run and were never resolved. Fix the database, then run ` +
        '`prisma migrate resolve --rolled-back <name>` (or --applied) before migrating again.',
    );
  }
  const applied = new Map<string, string>();
  for (const row of rows) {
    if (row.rolled_back_at === null) applied.set(row.migration_name, row.checksum);
  }
  return applied;
}

/** Editing an applied migration would make fresh databases differ from existing ones, so refuse. */
function assertNotEdited(migrations: MigrationFile[], applied: Map<string, string>): void {
  const edited = migrations.filter((migration) => {
    const recorded = applied.get(migration.name);
    return recorded !== undefined && !checksumMatches(migration.sql, recorded);
  });
  if (edited.length > 0) {
    const names = edited.map((migration) => migration.name).join(', ');
    throw new Error(
      `Migration(s) ${names} were modified after they were applied (checksum mismatch). ` +
        'Restore the original migration.sql and put the change into a new migration ' +
        '(npm run migration:create -- <name>).',
    );
  }
}

/** Runs one migration and records it in the same transaction. */
async function applyMigration(client: pg.ClientBase, migration: MigrationFile): Promise<void> {
  await client.query('BEGIN');
  try {
    // Simple-query protocol (no parameters), so the file may contain many statements.
    await client.query(migration.sql);
    // started_at defaults to now() (the transaction start); clock_timestamp() is the real end time.
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, clock_timestamp(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new Error(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
