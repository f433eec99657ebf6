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
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

/** The arguments `npm start` gives node (package.json's start script says the same). */
export const NPM_START_ARGS: readonly string[] = [...SERVER_NODE_FLAGS, 'scripts/run-entry.mjs', 'server'];
