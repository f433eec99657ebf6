// A throwaway PostgreSQL 15 primary and streaming standby from the machine's own binaries
// (/usr/lib/postgresql/15/bin), on free ports, for the replica and PgBouncer tests. The shared
// test server is never touched. initdb refuses root: the clusters run as the `postgres` user.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const PG_BIN = '/usr/lib/postgresql/15/bin';
const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];

export function hasPg15(): boolean {
  return fs.existsSync(path.join(PG_BIN, 'initdb'));
}

function run(command: string, args: string[]): string {
  const [bin, ...rest] = [...asPostgres, command, ...args];
  return execFileSync(bin!, rest, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function ownedTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `commerce-${prefix}-`));
  if (asPostgres.length) execFileSync('chown', ['postgres:postgres', dir]);
  fs.chmodSync(dir, 0o700);
  return dir;
}

export interface Cluster {
  port: number;
  dataDir: string;
  url(database?: string): string;
  start(): void;
  stop(mode?: 'fast' | 'immediate'): void;
  query<T = any>(sql: string, database?: string): Promise<T[]>;
}

function cluster(dataDir: string, port: number, socketDir: string): Cluster {
  const self: Cluster = {
    port,
    dataDir,
    url: (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    start() {
      run(path.join(PG_BIN, 'pg_ctl'), [
        '-D',
        dataDir,
        '-l',
        path.join(dataDir, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1`,
        'start',
      ]);
    },
    stop(mode = 'fast') {
      try {
        run(path.join(PG_BIN, 'pg_ctl'), ['-D', dataDir, '-m', mode, '-w', 'stop']);
      } catch {
        /* not running */
      }
    },
    async query(sql, database) {
      const client = new pg.Client({ connectionString: self.url(database) });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    },
  };
  return self;
}

/** initdb + start a primary with wal_level=replica (trust auth on 127.0.0.1, replication allowed). */
export async function startPrimary(): Promise<Cluster & { root: string }> {
  const root = ownedTempDir('pg15');
  const dataDir = path.join(root, 'primary');
  run(path.join(PG_BIN, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  fs.appendFileSync(
    path.join(dataDir, 'postgresql.conf'),
    '\nwal_level = replica\nmax_wal_senders = 5\nhot_standby = on\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 100\n',
  );
  const primary = cluster(dataDir, await freePort(), root);
  primary.start();
  return Object.assign(primary, { root });
}

/** pg_basebackup -R from the primary, then start it as a hot standby. */
export async function startStandby(primary: Cluster & { root: string }, name = 'standby'): Promise<Cluster> {
  const dataDir = path.join(primary.root, name);
  run(path.join(PG_BIN, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dataDir, '-R', '-X', 'stream', '--no-sync', '--checkpoint=fast']);
  const standby = cluster(dataDir, await freePort(), primary.root);
  standby.start();
  return standby;
}

export function removeClusters(root: string, clusters: Cluster[]): void {
  for (const c of clusters) c.stop('immediate');
  fs.rmSync(root, { recursive: true, force: true });
}
