// What this machine allows before any of our code runs: floors for the HTTP scenarios, each
// measured against the raw node:http yardstick in the same run as the app (bench/run.ts).
//
//   /sql/settings, /sql/entity, /sql/list   node:http + node-postgres doing the same reads as the
//                                           app's route (same tables, same indexes, prepared
//                                           statements, a body of the same shape), and nothing
//                                           else: no auth, no rate limit, no GraphQL, no envelope
//                                           checks. No implementation of the route can be much
//                                           cheaper than this on this machine.
//   /sql/list-json                          the same list page built as JSON by PostgreSQL in one
//                                           statement, sent as it comes: Node does almost nothing.
//   /kept                                   node:http sending the list page a storefront key gets
//                                           from the response cache (goal 3): the same bytes and
//                                           headers, taken from the app once at start and held in
//                                           memory. What answering a warm hit costs with no
//                                           pipeline at all: the bytes to the socket and the client
//                                           reading them, on the same two cores.
//   /adapter                                the fixed stack's server adapter (@whatwg-node/server,
//                                           the one Yoga runs on) answering the settings body.
//   /graphql?query={__typename}             Yoga itself with a one-field schema: no auth, no SQL.
//
// Started with the app's database URL and organization; prints {"url"} like the other targets.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createServerAdapter, Response as AdapterResponse } from '@whatwg-node/server';
import { createSchema, createYoga } from 'graphql-yoga';

const databaseUrl = process.env.FLOOR_DATABASE_URL!;
const organizationId = process.env.FLOOR_ORGANIZATION_ID!;
const entityId = process.env.FLOOR_ENTITY_ID!;
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
// FLOOR_KEPT_URL: the app's cached list page, with FLOOR_KEPT_KEY (a storefront key) as its caller.
const kept = process.env.FLOOR_KEPT_URL ? await fetch(process.env.FLOOR_KEPT_URL, { headers: { 'x-api-key': process.env.FLOOR_KEPT_KEY ?? '' } }) : null;
const keptBody = kept ? Buffer.from(await kept.arrayBuffer()) : Buffer.alloc(0);
const keptHeaders: Record<string, string | number> = { 'content-length': keptBody.length };
for (const name of ['content-type', 'cache-control', 'vary', 'etag', 'x-cache']) {
  const value = kept?.headers.get(name);
  if (value) keptHeaders[name] = value;
}

const SETTINGS = 'select "values" from settings where organization_id = $1 and "group" = $2';
const ENTITY = `select id, type, slug, status, metadata, created_at, updated_at from catalog_entities where organization_id = $1 and id = $2`;
const PAGE = `select id, type, slug, status, metadata, created_at, updated_at from catalog_entities
  where organization_id = $1 order by created_at desc, id desc limit $2`;
const COUNT = 'select count(*)::int as n from catalog_entities where organization_id = $1';
const ATTRIBUTES = `select entity_id, locale, title, description, seo_title, seo_description from catalog_attributes
  where organization_id = $1 and entity_id = any($2::uuid[])`;
// The app's own variants statement (src/modules/catalog/queries.ts loadVariants): option values
// joined and aggregated per variant.
const VARIANTS = `select v.entity_id, v.id, v.sku, v.title, v.metadata,
    coalesce(json_agg(json_build_object('optionName', t.name, 'value', ov.value) order by t.sort_order, t.name) filter (where ov.id is not null), '[]') as options
  from catalog_variants v
  left join catalog_variant_options vo on vo.variant_id = v.id
  left join catalog_option_values ov on ov.id = vo.option_value_id
  left join catalog_option_types t on t.id = ov.option_type_id
  where v.organization_id = $1 and v.entity_id = any($2::uuid[])
  group by v.id`;
// The whole page as JSON built by PostgreSQL in one statement: the least work Node can do for it.
const LIST_JSON = `select json_build_object('data', coalesce(json_agg(page), '[]'), 'meta',
    json_build_object('total', (select count(*) from catalog_entities where organization_id = $1), 'limit', $2::int))::text as body
  from (select e.id, e.type, e.slug, e.status, e.metadata, e.created_at as "createdAt", e.updated_at as "updatedAt",
          coalesce((select json_agg(json_build_object('locale', a.locale, 'title', a.title, 'description', a.description,
                      'seoTitle', a.seo_title, 'seoDescription', a.seo_description)) from catalog_attributes a where a.entity_id = e.id), '[]') as attributes,
          coalesce((select json_agg(json_build_object('id', v.id, 'sku', v.sku, 'title', v.title, 'metadata', v.metadata, 'options', v.options))
                    from (select v.id, v.sku, v.title, v.metadata,
                                 coalesce(json_agg(json_build_object('optionName', t.name, 'value', ov.value) order by t.sort_order, t.name)
                                          filter (where ov.id is not null), '[]') as options
                          from catalog_variants v
                          left join catalog_variant_options vo on vo.variant_id = v.id
                          left join catalog_option_values ov on ov.id = vo.option_value_id
                          left join catalog_option_types t on t.id = ov.option_type_id
                          where v.entity_id = e.id group by v.id) v), '[]') as variants,
          coalesce((select json_agg(json_build_object('id', p.id, 'currency', p.currency, 'amount', p.amount, 'variantId', p.variant_id))
                    from prices p where p.entity_id = e.id), '[]') as pricing
        from catalog_entities e where e.organization_id = $1 order by e.created_at desc, e.id desc limit $2) page`;
const PRICES = `select entity_id, id, currency, amount::text as amount, variant_id from prices where organization_id = $1 and entity_id = any($2::uuid[])`;

type Row = Record<string, unknown>;
const query = async (name: string, text: string, values: unknown[]): Promise<Row[]> => (await pool.query({ name, text, values })).rows;

function entityBody(row: Row): Row {
  return { id: row.id, type: row.type, slug: row.slug, status: row.status, metadata: row.metadata, createdAt: row.created_at, updatedAt: row.updated_at };
}

function groupBy(rows: Row[], map: (row: Row) => Row): Map<unknown, Row[]> {
  const groups = new Map<unknown, Row[]>();
  for (const row of rows) {
    const list = groups.get(row.entity_id) ?? [];
    list.push(map(row));
    groups.set(row.entity_id, list);
  }
  return groups;
}

async function list(limit: number): Promise<unknown> {
  const [page, count] = await Promise.all([query('page', PAGE, [organizationId, limit]), query('count', COUNT, [organizationId])]);
  const ids = page.map((row) => row.id);
  const [attributes, variants, prices] = await Promise.all([
    query('attributes', ATTRIBUTES, [organizationId, ids]),
    query('variants', VARIANTS, [organizationId, ids]),
    query('prices', PRICES, [organizationId, ids]),
  ]);
  const byAttributes = groupBy(attributes, (r) => ({ locale: r.locale, title: r.title, description: r.description, seoTitle: r.seo_title, seoDescription: r.seo_description }));
  const byVariants = groupBy(variants, (r) => ({ id: r.id, sku: r.sku, title: r.title, options: r.options, metadata: r.metadata }));
  const byPrices = groupBy(prices, (r) => ({ id: r.id, currency: r.currency, amount: Number(r.amount), variantId: r.variant_id }));
  return {
    data: page.map((row) => ({
      ...entityBody(row),
      attributes: byAttributes.get(row.id) ?? [],
      variants: byVariants.get(row.id) ?? [],
      pricing: byPrices.get(row.id) ?? [],
    })),
    meta: { total: count[0]!.n, limit },
  };
}

function send(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const sqlServer = http.createServer(async (req, res) => {
  try {
    if (req.url === '/sql/settings') return send(res, 200, { data: (await query('settings', SETTINGS, [organizationId, 'general']))[0]!.values });
    if (req.url === '/sql/entity') return send(res, 200, { data: entityBody((await query('entity', ENTITY, [organizationId, entityId]))[0]!) });
    if (req.url === '/sql/list') return send(res, 200, await list(20));
    if (req.url === '/kept') {
      res.writeHead(200, keptHeaders);
      return res.end(keptBody);
    }
    if (req.url === '/sql/list-json') {
      const body = (await query('list_json', LIST_JSON, [organizationId, 20]))[0]!.body as string;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      return res.end(body);
    }
    send(res, 404, { error: { code: 'NOT_FOUND', message: 'no such floor' } });
  } catch (error) {
    send(res, 500, { error: { code: 'INTERNAL_ERROR', message: String(error) } });
  }
});

const settingsBody = JSON.stringify({ data: { currency: 'USD', timezone: 'UTC', locale: 'en' } });
const adapterServer = http.createServer(createServerAdapter(() => new AdapterResponse(settingsBody, { headers: { 'content-type': 'application/json; charset=utf-8' } })));

const yoga = createYoga({ schema: createSchema({ typeDefs: 'type Query { ok: Boolean }' }), logging: false, graphiql: false });
const yogaServer = http.createServer(yoga);

const listenOn = (server: http.Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const [sql, adapter, graphql] = await Promise.all([listenOn(sqlServer), listenOn(adapterServer), listenOn(yogaServer)]);
console.log(JSON.stringify({ sql, adapter, graphql }));

process.on('SIGTERM', async () => {
  for (const server of [sqlServer, adapterServer, yogaServer]) server.closeAllConnections();
  await pool.end();
  process.exit(0);
});
