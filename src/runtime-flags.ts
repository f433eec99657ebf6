// V8 settings for every process (server, worker, CLI), applied before Prisma's client loads.
//
// `--liftoff-only`: Prisma 7 plans queries with a WebAssembly compiler, and V8 by default
// recompiles hot WebAssembly with its optimizing tier (TurboFan) in background threads. On this
// project that recompilation holds ~50 MB of RSS for the life of the process (measured: idle
// `npm start` 249 MB → 199 MB) while the bench shows no throughput loss: Prisma caches query
// plans, so the compiler runs once per query shape and its speed hardly matters after warm-up.
// Set COMMERCE_WASM_TIERUP=1 to keep V8's default.
import v8 from 'node:v8';

if (process.env.COMMERCE_WASM_TIERUP !== '1') v8.setFlagsFromString('--liftoff-only');
