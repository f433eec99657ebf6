// A small in-memory stand-in for the Meilisearch HTTP API: the endpoints the `meilisearch`
// client uses for this adapter (settings, documents add and delete-by-filter, search,
// multi-search, tasks), enough semantics to answer like the server (filters only on filterable
// attributes, facet distributions, page/hitsPerPage totals, ranking by searchable attribute then
// the custom `createdAt:desc` rule), and a log of every request so tests can assert what the
// adapter sends. Filters are parsed in the forms the adapter writes: `attr = "v"`,
// `attr IN ["a", "b"]`, `attr < 123`, an array of them ANDed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Doc = Record<string, any>;

export interface StubRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

interface Index {
  settings: Record<string, any>;
  docs: Map<string, Doc>;
}

export interface MeiliStub {
  url: string;
  requests: StubRequest[];
  indexes: Map<string, Index>;
  /** Documents of an index (all organizations). */
  documents(indexUid?: string): Doc[];
  /** Makes every call answer 503 until set back to false. */
  failing: boolean;
  close(): Promise<void>;
}

class FilterError extends Error {}

function field(doc: Doc, path: string): unknown {
  return path.split('.').reduce<any>((value, key) => (value == null ? undefined : value[key]), doc);
}

function isFilterable(settings: Record<string, any>, attribute: string): boolean {
  const filterable: string[] = settings.filterableAttributes ?? [];
  return filterable.some((f) => attribute === f || attribute.startsWith(`${f}.`));
}

function compile(settings: Record<string, any>, filter: unknown): (doc: Doc) => boolean {
  if (filter === undefined || filter === null) return () => true;
  const parts = Array.isArray(filter) ? filter : [filter];
  const tests = parts.map((part) => {
    if (Array.isArray(part)) {
      const ors = part.map((p) => compile(settings, p));
      return (doc: Doc) => ors.some((test) => test(doc));
    }
    const match = /^([A-Za-z0-9_.-]+) (=|<|IN) (.+)$/s.exec(String(part));
    if (!match) throw new FilterError(`stub cannot parse filter ${JSON.stringify(part)}`);
    const [, attribute, op, raw] = match as unknown as [string, string, string, string];
    if (!isFilterable(settings, attribute)) throw new FilterError(`Attribute \`${attribute}\` is not filterable.`);
    const value = JSON.parse(raw) as unknown;
    const has = (doc: Doc, wanted: (v: unknown) => boolean) => {
      const actual = field(doc, attribute);
      return Array.isArray(actual) ? actual.some(wanted) : wanted(actual);
    };
    if (op === '=') return (doc: Doc) => has(doc, (v) => v === value);
    if (op === '<') return (doc: Doc) => has(doc, (v) => typeof v === 'number' && v < (value as number));
    const values = value as unknown[];
    return (doc: Doc) => has(doc, (v) => values.includes(v));
  });
  return (doc) => tests.every((test) => test(doc));
}

function words(value: unknown): string[] {
  const text = Array.isArray(value) ? value.join(' ') : String(value ?? '');
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function runSearch(index: Index, params: Record<string, any>) {
  const filter = compile(index.settings, params.filter);
  for (const facet of params.facets ?? []) if (!isFilterable(index.settings, facet)) throw new FilterError(`Attribute \`${facet}\` is not filterable (facets).`);
  const tokens = words(params.q ?? '');
  const searchable: string[] = index.settings.searchableAttributes ?? ['*'];
  let hits = [...index.docs.values()].filter(filter).map((doc) => {
    if (!tokens.length) return { doc, rank: 0 };
    const rank = searchable.findIndex((attribute) => {
      const w = words(doc[attribute]);
      return tokens.every((token) => w.some((word) => word.startsWith(token)));
    });
    return { doc, rank };
  });
  hits = hits.filter((h) => h.rank >= 0).sort((a, b) => a.rank - b.rank || b.doc.createdAt - a.doc.createdAt);
  const facetDistribution: Record<string, Record<string, number>> = {};
  for (const facet of params.facets ?? []) {
    const counts: Record<string, number> = {};
    for (const { doc } of hits) {
      const value = field(doc, facet);
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
    }
    facetDistribution[facet] = counts;
  }
  const retrieve = (doc: Doc) => (params.attributesToRetrieve ? Object.fromEntries(params.attributesToRetrieve.map((a: string) => [a, doc[a]])) : doc);
  const base = { query: params.q ?? '', processingTimeMs: 0, ...(params.facets ? { facetDistribution } : {}) };
  if (params.hitsPerPage !== undefined || params.page !== undefined) {
    const perPage = params.hitsPerPage ?? 20;
    const page = params.page ?? 1;
    return {
      ...base,
      hits: perPage ? hits.slice((page - 1) * perPage, page * perPage).map((h) => retrieve(h.doc)) : [],
      page,
      hitsPerPage: perPage,
      totalHits: hits.length,
      totalPages: perPage ? Math.ceil(hits.length / perPage) : 0,
    };
  }
  const limit = params.limit ?? 20;
  const offset = params.offset ?? 0;
  return { ...base, hits: hits.slice(offset, offset + limit).map((h) => retrieve(h.doc)), limit, offset, estimatedTotalHits: hits.length };
}

export async function startMeiliStub(options: { apiKey?: string } = {}): Promise<MeiliStub> {
  const indexes = new Map<string, Index>();
  const requests: StubRequest[] = [];
  const tasks = new Map<number, Record<string, any>>();
  let nextTask = 0;
  const stub = { failing: false } as MeiliStub;

  const indexOf = (uid: string) => {
    let index = indexes.get(uid);
    if (!index) {
      index = { settings: {}, docs: new Map() };
      indexes.set(uid, index);
    }
    return index;
  };
  // Tasks run at once; a failing one is recorded as failed (as the server does), not as an HTTP error.
  const enqueue = (indexUid: string, type: string, work: () => void) => {
    const uid = nextTask++;
    let error: { message: string; code: string } | null = null;
    try {
      work();
    } catch (e) {
      error = { message: (e as Error).message, code: 'invalid_document_filter' };
    }
    const now = new Date().toISOString();
    tasks.set(uid, { uid, indexUid, status: error ? 'failed' : 'succeeded', type, error, enqueuedAt: now, startedAt: now, finishedAt: now, duration: 'PT0S', details: {} });
    return { status: 202, body: { taskUid: uid, indexUid, status: 'enqueued', type, enqueuedAt: now } };
  };

  const route = (method: string, path: string, body: any): { status: number; body: unknown } => {
    let m: RegExpExecArray | null;
    if (method === 'PATCH' && (m = /^\/indexes\/([^/]+)\/settings$/.exec(path))) {
      return enqueue(m[1]!, 'settingsUpdate', () => Object.assign(indexOf(m![1]!).settings, body));
    }
    if (method === 'POST' && (m = /^\/indexes\/([^/]+)\/documents$/.exec(path))) {
      return enqueue(m[1]!, 'documentAdditionOrUpdate', () => {
        const index = indexOf(m![1]!);
        for (const doc of body as Doc[]) {
          if (typeof doc.id !== 'string' || !/^[A-Za-z0-9_-]+$/.test(doc.id)) throw new Error(`invalid document id ${doc.id}`);
          index.docs.set(doc.id, { ...index.docs.get(doc.id), ...doc });
        }
      });
    }
    if (method === 'POST' && (m = /^\/indexes\/([^/]+)\/documents\/delete$/.exec(path))) {
      return enqueue(m[1]!, 'documentDeletion', () => {
        const index = indexOf(m![1]!);
        const test = compile(index.settings, body.filter);
        for (const [id, doc] of index.docs) if (test(doc)) index.docs.delete(id);
      });
    }
    if (method === 'GET' && (m = /^\/tasks\/(\d+)$/.exec(path))) {
      const task = tasks.get(Number(m[1]));
      return task ? { status: 200, body: task } : { status: 404, body: { message: 'task not found', code: 'task_not_found', type: 'invalid_request', link: '' } };
    }
    try {
      if (method === 'POST' && (m = /^\/indexes\/([^/]+)\/search$/.exec(path))) {
        const index = indexes.get(m[1]!);
        if (!index) return { status: 404, body: { message: `Index \`${m[1]}\` not found.`, code: 'index_not_found', type: 'invalid_request', link: '' } };
        return { status: 200, body: runSearch(index, body) };
      }
      if (method === 'POST' && path === '/multi-search') {
        const results = (body.queries as Array<Record<string, any>>).map(({ indexUid, ...params }) => {
          const index = indexes.get(indexUid);
          if (!index) throw new FilterError(`Index \`${indexUid}\` not found.`);
          return { indexUid, ...runSearch(index, params) };
        });
        return { status: 200, body: { results } };
      }
    } catch (error) {
      if (error instanceof FilterError) return { status: 400, body: { message: error.message, code: 'invalid_search_filter', type: 'invalid_request', link: '' } };
      throw error;
    }
    return { status: 404, body: { message: `stub has no ${method} ${path}`, code: 'not_found', type: 'invalid_request', link: '' } };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://stub');
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? JSON.parse(text) : undefined;
      requests.push({ method: req.method!, path: url.pathname + url.search, authorization: req.headers.authorization, body });
      let out: { status: number; body: unknown };
      if (stub.failing) out = { status: 503, body: { message: 'stub is failing', code: 'internal', type: 'internal', link: '' } };
      else if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`)
        out = { status: 401, body: { message: 'The provided API key is invalid.', code: 'invalid_api_key', type: 'auth', link: '' } };
      else out = route(req.method!, url.pathname, body);
      res.writeHead(out.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(stub, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    indexes,
    documents: (uid = 'catalog') => [...(indexes.get(uid)?.docs.values() ?? [])],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return stub;
}
