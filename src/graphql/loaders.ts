// Per-request batch loaders: the graph resolves a relation when it is selected, and every
// selection of the same relation at the same level of a response (a page of 100 entities each
// asking for its variants) lands in one batch, so one SQL statement serves the whole level.
// DataLoader (named by the architecture) does the batching per tick and caches per request; the
// cache lives in ctx.loaders, which an audited mutation replaces with a fresh map so no loader
// outlives its transaction.
import DataLoader from 'dataloader';
import type { RequestContext } from '../context.js';

type LoaderCtx = Pick<RequestContext, 'loaders'>;

/**
 * The request's loader named `key`, created on first use. `batch` receives the distinct keys of
 * one tick and returns their values keyed by the same strings; a missing key yields `fallback()`.
 */
export function batchLoader<V>(ctx: LoaderCtx, key: string, batch: (keys: string[]) => Promise<Map<string, V>>, fallback: () => V): DataLoader<string, V> {
  let loader = ctx.loaders.get(key) as DataLoader<string, V> | undefined;
  if (!loader) {
    loader = new DataLoader<string, V>(async (keys) => {
      const found = await batch([...keys]);
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      return keys.map((k) => (found.has(k) ? found.get(k)! : fallback()));
    });
    ctx.loaders.set(key, loader);
  }
  return loader;
}

/**
 * Whether this request came through the REST facade. REST keeps its `include` contract (an embed
 * not named there is null and costs nothing), while GraphQL resolves whatever is selected.
 */
export function viaRestFacade(ctx: Pick<RequestContext, 'rest'>): boolean {
  return ctx.rest?.facade === true;
}

export function groupBy<T, V = T>(items: readonly T[], key: (item: T) => string, value: (item: T) => V = (item) => item as unknown as V): Map<string, V[]> {
  const map = new Map<string, V[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(value(item));
    else map.set(k, [value(item)]);
  }
  return map;
}

/**
 * Relation fields that exist only in the graph ('Type.field'). The REST facade leaves them out of
 * the selections it generates, so REST bodies keep their shape and statement counts (and a field
 * with required arguments, such as a resolved price in a currency, never leaks into a route).
 */
export const graphOnlyFields = new Set<string>();

export function graphOnly(typeName: string, ...fields: string[]): void {
  for (const field of fields) graphOnlyFields.add(`${typeName}.${field}`);
}
