// `search/reindex`: a full rebuild of an organization's search documents (after a bulk SQL
// import with triggers off, a restore, or a change of text-search configuration), then the
// configured engine's own copy when it is an external one.
import type { RequestContext } from '../../context.js';
import { defineTask } from '../../jobs/tasks.js';
import { onFieldIndexingChanged } from '../catalog/hooks.js';
import { searchEngineFor } from './service.js';
import { SEARCH_INDEX_KEY } from './sync.js';

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
  concurrency: { key: () => SEARCH_INDEX_KEY, supersedes: true },
  async handler(_input, ctx) {
    const engine = searchEngineFor(ctx.config);
    const organization = { id: ctx.organizationId } as never;
    const startedAt = new Date();
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
    // Copies of entities deleted since the last sync were not pushed by this rebuild: they go now.
    await engine.removeStale?.({ db: ctx.db, organization, actor: null, requestId: `job:${ctx.job.id}` }, startedAt);
    return { entities };
  },
});

// A field becoming (un)filterable or archived changes every document of its entity type: an
// external engine gets a rebuild (superseding any pending one), enqueued with the change.
onFieldIndexingChanged(async (tx, ctx) => {
  const { config, services } = ctx as Partial<RequestContext>;
  if (!config || !services || config.search.engine === 'postgres') return;
  await services.jobs.enqueue({ task: REINDEX_TASK, organizationId: ctx.organization.id, input: {} }, tx);
});
