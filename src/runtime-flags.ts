// V8 settings for every process (server, worker, CLI), applied before Prisma's client loads.
//
// `--liftoff-only`: Prisma 7 plans queries with a WebAssembly compiler, and V8 by default
// recompiles hot WebAssembly with its optimizing tier (TurboFan) in background threads. On this
// project that recompilation holds ~50 MB of RSS for the life of the process (measured: idle
// `npm start` 249 MB → 199 MB) while the bench shows no throughput loss: Prisma caches query
// plans, so the compiler runs once per query shape and its speed hardly matters after warm-up.
// Set COMMERCE_WASM_TIERUP=1 to keep V8's default.
//
// `--heap-growing-percent`: after each full collection V8 lets the old generation grow to a
// multiple of what survived it before collecting again; by default that multiple rises towards 4×
// while the heap is small and the allocation rate high, which is exactly a server answering 50
// list pages at once (what a request allocates is garbage within milliseconds, but it lives long
// enough to be promoted while the request awaits PostgreSQL). Under the list-with-includes load
// the process settled at ~365 MB RSS (old space ~180 MB, ~100 MB of it live). A fixed factor of
// 2 (100%) keeps it at ~285 MB for about the same CPU per request; 1.5 gave ~258 MB for ~13% more
// CPU, 1.2 ~238 MB for ~28% more (A/B pairs in the README, "Where the time goes"). The factor is
// read at every collection, so setting it here at start-up takes effect.
// COMMERCE_HEAP_GROWING_PERCENT=0 keeps V8's default; another whole number replaces the 100.
import v8 from 'node:v8';

if (process.env.COMMERCE_WASM_TIERUP !== '1') v8.setFlagsFromString('--liftoff-only');

const heapGrowingPercent = Number(process.env.COMMERCE_HEAP_GROWING_PERCENT ?? 100);
if (Number.isInteger(heapGrowingPercent) && heapGrowingPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
