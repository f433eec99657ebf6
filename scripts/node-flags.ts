// Node.js flags of the API server process, given on its command line: `npm start` runs
// `node <SERVER_NODE_FLAGS> scripts/run-entry.mjs server` (package.json, NPM_START_ARGS), and the
// benches start the server with them (bench/support/driver.ts, bench/production.ts,
// bench/peer/ours.ts), so what is measured is what an operator runs.
// test/platform/node-flags.test.ts fails when package.json's start script differs from NPM_START_ARGS.
//
// `--max-semi-space-size=32` (MB; Node 20's default is 16): a request's garbage lives while it
// awaits PostgreSQL, and with 50 requests in flight a 16 MB young generation is scavenged several
// times during one request, so most of it survives two scavenges, is promoted and only freed by a
// full collection of the old generation. With 32 MB it mostly dies young. Same-run A/B, 7 rounds,
// 50 connections (bench/post-ab.ts): GraphQL storefront card B/A 0.817 with 64 MB, and 64 MB against 32 MB level (1.02),
// REST list with includes 0.902, settings read 1.00. V8 reads it only when the heap is created,
// so it cannot be set from inside the process as src/runtime-flags.ts sets its flags. It costs
// memory: `npm run bench:production`, same machine, one run each way, 30 s list loads: idle RSS
// 187 → 216 MB, under the list load 307 / 328 / 321 → 347 / 348 / 343 MB (start 673 → 650 ms).
//
// `--no-allocation-site-pretenuring`: V8 watches which allocation sites' objects survive scavenges
// and, past a threshold, allocates that site's objects straight in the old generation. Booting on a
// fresh database (migrations, the first writes, module loading) is such a phase, and the decision
// then stuck to sites the request path shares (node-postgres' result objects among them): every
// young object a pretenured one points to is kept by the scavenger through the old-to-new remembered
// set, even after the old one is dead, so it is promoted and freed only by a full collection. At
// one connection in-process (measured with --trace-gc-nvp) a REST list page promoted
// 268 KB of its 1.4 MB and the process ran 10 mark-compacts per 3,000 pages; with the flag 19 KB and
// none. A plain node-postgres loop in the same process promoted 21% of what it allocated, 0% after
// a forced full collection or with the flag. Same-run A/B at 50 connections (bench/post-ab.ts with
// B_NODE_ARGS): REST list with includes B/A 0.908 (per-round median 0.942), GraphQL list 0.815
// (0.824), entity by id 0.903 (0.933).
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32', '--no-allocation-site-pretenuring'];

/** The arguments `npm start` gives node (package.json's start script says the same). */
export const NPM_START_ARGS: readonly string[] = [...SERVER_NODE_FLAGS, 'scripts/run-entry.mjs', 'server'];
