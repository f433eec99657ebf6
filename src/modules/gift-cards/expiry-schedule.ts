// Enqueues the expiry sweep of an organization for when a card expires (the sweep itself:
// expiry.ts). Apart from the task, so the issuing service schedules it without importing the job.
import type { Tx } from '../../db/client.js';
import type { Services } from '../../services.js';

export const EXPIRE_TASK = 'gift-cards/expire';

declare module '../../jobs/tasks.js' {
  interface TaskTypes {
    'gift-cards/expire': { input: Record<string, never>; output: { expired: number } };
  }
}

export interface JobsCtx {
  services: Pick<Services, 'jobs'>;
}

/** A little after the expiry, so the sweep never wakes up just before it. */
const MARGIN_MS = 1_000;

/**
 * One sweep per card with an expiry, due at that expiry, in the issuing transaction (so it exists
 * exactly when the card does). A sweep takes every card of the organization that is due, so a
 * sweep that finds its card already swept by an earlier one does nothing.
 */
export async function scheduleExpirySweep(tx: Tx, ctx: { organization: { id: string } } & JobsCtx, expiresAt: Date): Promise<void> {
  const delayMs = Math.max(0, expiresAt.getTime() - Date.now()) + MARGIN_MS;
  await ctx.services.jobs.enqueue({ task: EXPIRE_TASK, organizationId: ctx.organization.id, input: {}, delayMs }, tx);
}
