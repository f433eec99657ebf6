// The jobs service on ctx.services: how other modules enqueue work. Pass the caller's
// transaction to make the job part of the write that asks for it.
import type { Config } from '../config/index.js';
import type { Db, Tx } from '../db/client.js';
import type { Job } from '../generated/prisma/client.js';
import { enqueueJob, type EnqueueOptions } from './enqueue.js';
import type { TaskSlug } from './tasks.js';

export interface JobsService {
  enqueue<S extends TaskSlug>(options: EnqueueOptions<S>, tx?: Tx): Promise<Job>;
}

export function createJobsService(deps: { db: Db; config: Config }): JobsService {
  return {
    enqueue: (options, tx) => enqueueJob({ db: tx ?? deps.db, config: deps.config }, options),
  };
}

// ctx.services.jobs: the core's Services registry (src/services.ts) is filled where each service is defined, by declaration merging.
declare module '../services.js' {
  interface Services {
    /** Enqueue background jobs (optionally inside the caller's transaction). */
    jobs: JobsService;
  }
}
