// `jobs/reap-stale`: takes back processing jobs whose heartbeat stopped (their worker crashed or
// was killed), within the job's own organization. Workers also run the same reap for every
// organization on their own timer (jobs.reapIntervalMs), so a crash is recovered without anyone
// enqueueing this task; the task is for cron-only deployments and operators.
import { reapStaleJobs } from './store.js';
import { defineTask } from './tasks.js';

export interface ReapStaleOutput {
  reaped: Array<{ id: string; taskSlug: string; status: string; attempts: number }>;
}

declare module './tasks.js' {
  interface TaskTypes {
    'jobs/reap-stale': { input: { staleAfterMs?: number }; output: ReapStaleOutput };
  }
}

defineTask({
  slug: 'jobs/reap-stale',
  async handler(input, ctx) {
    const staleAfterMs = typeof input.staleAfterMs === 'number' && input.staleAfterMs > 0 ? input.staleAfterMs : ctx.config.jobs.staleAfterMs;
    const reaped = await reapStaleJobs(ctx.db, { staleAfterMs, organizationId: ctx.organizationId });
    if (reaped.length) ctx.logger.warn({ jobs: reaped.map((j) => j.id) }, 'reaped jobs of stopped workers');
    return { reaped: reaped.map((j) => ({ id: j.id, taskSlug: j.taskSlug, status: j.status, attempts: j.attempts })) };
  },
});
