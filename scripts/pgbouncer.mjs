#!/usr/bin/env node
// Starts PgBouncer in transaction mode in front of a PostgreSQL server, on a free port, with a
// generated ini (trust auth for the given user, every database passed through). Used by .ci/run's
// server run and by test/scale/pgbouncer.test.ts. Prints `PORT PID DIR` on stdout.
//   node scripts/pgbouncer.mjs [upstream host:port] [user]
// PgBouncer refuses to run as root: as root it runs as the `postgres` user.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const [upstream = '127.0.0.1:5432', user = 'postgres'] = process.argv.slice(2);
const [host, upstreamPort] = upstream.split(':');
const bin = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => fs.existsSync(p));
if (!bin) {
  console.error('pgbouncer is not installed (apt-get install pgbouncer)');
  process.exit(2);
}

const port = await new Promise((resolve, reject) => {
  const server = net.createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port: p } = server.address();
    server.close(() => resolve(p));
  });
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-pgbouncer-'));
const root = process.getuid?.() === 0;
fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`);
fs.writeFileSync(
  path.join(dir, 'pgbouncer.ini'),
  `[databases]
* = host=${host} port=${upstreamPort}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${path.join(dir, 'userlist.txt')}
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 40
max_db_connections = 80
server_reset_query =
ignore_startup_parameters = extra_float_digits,options,application_name
logfile = ${path.join(dir, 'pgbouncer.log')}
pidfile = ${path.join(dir, 'pgbouncer.pid')}
`,
);
if (root) execFileSync('chown', ['-R', 'postgres', dir]);
const args = root ? ['-u', 'postgres', '--', bin, path.join(dir, 'pgbouncer.ini')] : [path.join(dir, 'pgbouncer.ini')];
const child = spawn(root ? 'runuser' : bin, args, { detached: true, stdio: 'ignore' });
child.unref();
// Ready when it accepts connections.
const started = Date.now();
for (;;) {
  const ok = await new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });
  if (ok) break;
  if (Date.now() - started > 10_000) {
    console.error(`pgbouncer did not start; see ${dir}/pgbouncer.log`);
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 50));
}
const pid = fs.existsSync(path.join(dir, 'pgbouncer.pid')) ? fs.readFileSync(path.join(dir, 'pgbouncer.pid'), 'utf8').trim() : String(child.pid);
console.log(`${port} ${pid} ${dir}`);
