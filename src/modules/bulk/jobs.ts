// GET /jobs/:id: a job as its caller may see it. Bulk jobs (imports, exports) are visible to
// whoever holds the permission that starts them; every job to jobs:admin; anything else is 404
// (not 403: a job id says nothing to someone who may not see it). Download links in a bulk job's
// output are signed on every read, so a stale link is fixed by reading the job again.
import type { Config } from '../../config/index.js';
import type { RequestContext } from '../../context.js';
import { hasPermission } from '../../auth/permissions.js';
import { notFound } from '../../errors.js';
import type { Job } from '../../generated/prisma/client.js';
import { signBulkFile } from './files.js';

/** The permission that lets a caller follow a job of each bulk task. */
export const BULK_TASK_PERMISSIONS: Record<string, string> = {
  'catalog/import': 'catalog:create',
  'catalog/export': 'catalog:read',
  'orders/export': 'orders:read',
  'customers/export': 'customers:read',
};

type FileRef = { fileId?: string };

/** The job with signed URLs beside each file id of its output. */
export function withLinks(config: Config, job: Job): Job {
  const output = job.output as Record<string, unknown> | null;
  if (!output || typeof output !== 'object' || !BULK_TASK_PERMISSIONS[job.taskSlug]) return job;
  const linked: Record<string, unknown> = { ...output };
  for (const key of ['file', 'errorReport']) {
    const ref = output[key] as FileRef | null | undefined;
    if (ref?.fileId) linked[key] = { ...ref, ...signBulkFile(config, job.organizationId, ref.fileId) };
  }
  return { ...job, output: linked as never };
}

/** The fields of the Job type, as JSON (raw routes answer what the sofa routes would). */
export function jobJson(config: Config, job: Job): Record<string, unknown> {
  const j = withLinks(config, job);
  return {
    id: j.id,
    organizationId: j.organizationId,
    queue: j.queue,
    taskSlug: j.taskSlug,
    status: j.status,
    input: j.input,
    output: j.output,
    error: j.error,
    attempts: j.attempts,
    maxAttempts: j.maxAttempts,
    waitUntil: j.waitUntil,
    concurrencyKey: j.concurrencyKey,
    processingStartedAt: j.processingStartedAt,
    completedAt: j.completedAt,
    createdAt: j.createdAt,
    updatedAt: j.updatedAt,
  };
}

export async function jobForCaller(ctx: Pick<RequestContext, 'db' | 'organization' | 'actor' | 'config'>, id: string): Promise<Job> {
  const job = await ctx.db.job.findFirst({ where: { id, organizationId: ctx.organization.id } });
  const granted = ctx.actor?.permissions ?? [];
  const needed = job ? BULK_TASK_PERMISSIONS[job.taskSlug] : undefined;
  if (!job || !(hasPermission(granted, 'jobs:admin') || (needed && hasPermission(granted, needed)))) throw notFound('Job');
  return withLinks(ctx.config, job);
}
