// Which requests changed what storefront catalog reads show. Every API process learns of such a
// change from PostgreSQL (the outbox trigger's NOTIFY on `commerce_cache`, delivered at commit),
// but that arrives a few milliseconds after the writer's own answer may have gone out: the
// writing process marks the request here when it records such an event, and the HTTP layer
// drops the organization's cached reads before it answers, so a caller always reads its own
// write through the process that took it. A plain map keyed by request id (no
// AsyncLocalStorage: one costs 11–15% of a request's CPU on Node 20).

/** Event name prefixes whose events change what catalog reads answer (the trigger's list too). */
export const CACHE_EVENT_PREFIXES = ['catalog.', 'pricing.', 'inventory.', 'settings.'] as const;

const touched = new Map<string, string>();
/**
 * Processes without the HTTP layer (the worker, the CLI) record events with the request id of the
 * request that queued the work and never take it back: the map stays bounded, oldest first out.
 */
const MAX_TOUCHED = 10_000;

export function affectsCachedReads(type: string): boolean {
  return CACHE_EVENT_PREFIXES.some((prefix) => type.startsWith(prefix));
}

/** Called where a request records such a change (its organization's reads must be dropped). */
export function markCacheTouched(requestId: string | null | undefined, organizationId: string, type: string): void {
  if (!requestId || !affectsCachedReads(type)) return;
  touched.set(requestId, organizationId);
  if (touched.size > MAX_TOUCHED) {
    const oldest = touched.keys().next().value;
    if (oldest !== undefined) touched.delete(oldest);
  }
}

/** The organization a request changed, if any; forgets the request. */
export function takeCacheTouched(requestId: string): string | undefined {
  const organizationId = touched.get(requestId);
  if (organizationId !== undefined) touched.delete(requestId);
  return organizationId;
}
