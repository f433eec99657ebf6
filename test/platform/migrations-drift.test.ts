// Fails when prisma/schema.prisma and prisma/migrations disagree, i.e. someone changed the schema without
// running `npm run migration:create -- <name>`. The schema engine replays the migrations on a scratch
// shadow database (created on the server below, dropped afterwards) and diffs it with the schema.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { schemaDriftSql } from '../../src/db/schema-engine.js';

/** The test run's PostgreSQL server (embedded or DATABASE_URL's): shadow databases are created on it. */
function testDatabaseUrl(): string {
  return inject('adminUrl');
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCHEMA_PATH = path.join(ROOT, 'prisma', 'schema.prisma');
const MIGRATIONS_DIR = path.join(ROOT, 'prisma', 'migrations');
const TIMEOUT_MS = 30_000;

/** The schema with one extra nullable column on its first model, which any migration history lacks. */
function withExtraColumn(schema: string): string {
  const firstModel = /^model\s+\w+\s*\{[^\n]*\n/m;
  if (!firstModel.test(schema)) throw new Error('prisma/schema.prisma has no model to modify');
  return schema.replace(firstModel, (header) => `${header}  driftProbe String? @map("drift_probe")\n`);
}

describe('prisma migrations', () => {
  it(
    'match prisma/schema.prisma (run `npm run migration:create -- <name>` after changing the schema)',
    async () => {
      const sql = await schemaDriftSql({
        databaseUrl: testDatabaseUrl(),
        schemaPath: SCHEMA_PATH,
        migrationsDir: MIGRATIONS_DIR,
      });
      expect(sql, `prisma/migrations is missing:\n${sql}`).toBe('');
    },
    TIMEOUT_MS,
  );

  it(
    'are reported as drifted when the schema gains a column',
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'schema-drift-'));
      try {
        const schemaPath = path.join(dir, 'schema.prisma');
        await writeFile(schemaPath, withExtraColumn(await readFile(SCHEMA_PATH, 'utf8')));
        const sql = await schemaDriftSql({ databaseUrl: testDatabaseUrl(), schemaPath, migrationsDir: MIGRATIONS_DIR });
        expect(sql).toMatch(/ADD COLUMN\s+"drift_probe"/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    TIMEOUT_MS,
  );
});
