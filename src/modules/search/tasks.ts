// `search/reindex`: a full rebuild of an organization's search documents (after a bulk SQL
// import with triggers off, a restore, or a change of text-search configuration), then the
// configured engine's own copy when it is an external one.
import { defineTask } from '../../jobs/tasks.js';
import { searchEngine } from './service.js';

export const REINDEX_TASK = 'search/reindex';
const BATCH = 1000;

declare module '../../jobs/tasks.js' {
  interface TaskTypes {
    'search/reindex': { input: Record<string, never>; output: { entities: number } };
  }
}

defineTask({
  slug: REINDEX_TASK,
  retries: { attempts: 3, backoff: { type: 'exponential', delay: 30_000 } },
  concurrency: { key: () => 'search-reindex', supersedes: true },
  async handler(_input, ctx) {
    const engine = searchEngine();
    const organization = { id: ctx.organizationId } as never;
    let cursor: string | undefined;
    let entities = 0;
    while (true) {
      const rows = await ctx.db.catalogEntity.findMany({
        where: { organizationId: ctx.organizationId, ...(cursor ? { id: { gt: cursor } } : {}) },
        select: { id: true },
        orderBy: { id: 'asc' },
        take: BATCH,
      });
      if (!rows.length) break;
      const ids = rows.map((r) => r.id);
      // Batches of a thousand: each its own short statement, never one long lock on the table.
      await ctx.db.$executeRaw`SELECT search_refresh_entities(${ids}::uuid[])`;
      await engine.index({ db: ctx.db, organization, actor: null, requestId: `job:${ctx.job.id}` }, ids);
      entities += ids.length;
      cursor = ids[ids.length - 1];
    }
    return { entities };
  },
});
