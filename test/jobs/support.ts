// Helpers for job tests: runners over the test app's database, and direct reads of job rows.
import type { TestApp } from '../support/app.js';
import { JobRunner, type RunnerOptions } from '../../src/jobs/runner.js';
import { createDb } from '../../src/db/client.js';
import type { Job } from '../../src/generated/prisma/client.js';

export function runner(t: TestApp, options: RunnerOptions = {}): JobRunner {
  return new JobRunner({ db: t.app.db, config: t.app.config, logger: t.app.logger, services: t.app.services }, options);
}

/** A runner with its own connection pool, as another process would have. */
export function separateRunner(t: TestApp, options: RunnerOptions = {}): { runner: JobRunner; close(): Promise<void> } {
  const { db } = createDb(t.app.databaseUrl, { max: 4 });
  return {
    runner: new JobRunner({ db, config: t.app.config, logger: t.app.logger, services: t.app.services }, options),
    close: () => db.$disconnect(),
  };
}

export async function job(t: TestApp, id: string): Promise<Job> {
  return t.app.db.job.findUniqueOrThrow({ where: { id } });
}

export async function defaultOrgId(t: TestApp): Promise<string> {
  return (await t.app.services.organizations.defaultOrganization()).id;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a truthy value (or throws after timeoutMs). */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 10_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(everyMs);
  }
}

/** A latch a test opens when it wants a blocked handler to return. */
export function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
