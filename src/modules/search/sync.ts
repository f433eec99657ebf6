// Keeping an external search engine in step with the catalog. Every catalog.create, .update and
// .delete event (the outbox records them in the writing transaction: attribute, custom-field,
// status, membership, variant and field changes all emit catalog.update) becomes part of one
// `search/sync` job per organization and dispatched batch, enqueued in the dispatch transaction
// (a required subscriber: the events stay undispatched until their job is recorded). The job
// reads the entities' current documents when it runs, so late or repeated jobs still push the
// latest state; jobs of one organization run one at a time, sharing `search/reindex`'s
// concurrency key, so an older push never lands after a newer one. With PostgreSQL as the
// engine there is nothing to sync: triggers keep its documents in the writing transaction.
import { eventSubscribers } from '../../events/subscribers.js';
import { defineTask } from '../../jobs/tasks.js';
import { searchEngineFor } from './service.js';

export const SYNC_TASK = 'search/sync';
/** One search-index writer per organization at a time (sync and reindex alike). */
export const SEARCH_INDEX_KEY = 'search-index';

declare module '../../jobs/tasks.js' {
  interface TaskTypes {
    'search/sync': { input: { entityIds: string[] }; output: { entities: number } };
  }
}

const SYNCED_EVENTS = new Set(['catalog.create', 'catalog.update', 'catalog.delete']);

eventSubscribers.onBatch(
  async (events, ctx) => {
    if (ctx.config.search.engine === 'postgres') return;
    const byOrganization = new Map<string, Set<string>>();
    for (const event of events) {
      // An import's batch raises one catalog.import naming every entity it changed.
      const entityIds = event.type === 'catalog.import' ? ((event.payload as { entityIds?: string[] }).entityIds ?? []) : [];
      if (!SYNCED_EVENTS.has(event.type) && !entityIds.length) continue;
      const entityId = (event.payload as { entity?: { id?: string } }).entity?.id;
      if (entityId) entityIds.push(entityId);
      if (!entityIds.length) continue;
      const ids = byOrganization.get(event.organizationId) ?? new Set<string>();
      for (const id of entityIds) ids.add(id);
      byOrganization.set(event.organizationId, ids);
    }
    for (const [organizationId, ids] of byOrganization) {
      await ctx.services.jobs.enqueue({ task: SYNC_TASK, organizationId, input: { entityIds: [...ids] } }, ctx.db);
    }
  },
  { name: 'search index sync', required: true },
);

defineTask({
  slug: SYNC_TASK,
  retries: { attempts: 10, backoff: { type: 'exponential', delay: 5_000 } },
  concurrency: { key: () => SEARCH_INDEX_KEY },
  async handler(input, ctx) {
    const engine = searchEngineFor(ctx.config);
    const organization = { id: ctx.organizationId } as never;
    // index() pushes what exists now and deletes the copies of entities (or locales) that are gone.
    await engine.index({ db: ctx.db, organization, actor: null, requestId: `job:${ctx.job.id}` }, input.entityIds);
    return { entities: input.entityIds.length };
  },
});
