// Bench: search at 10,000 and then 100,000 catalog entities (titles, descriptions, three
// filterable custom fields, a category and a brand each), against a raw node:http yardstick in
// the same run. Scenarios: (a) GET /api/search with q + two attr filters + four facets,
// (b) GET /api/search/suggest. Prints req/s, p50, p99 (medians over alternating rounds), the
// ratio to the yardstick, SQL statements per request, and the EXPLAIN ANALYZE plans.
//   npm run bench:search   (BENCH_SECONDS per round, default 4; BENCH_ROUNDS, default 3; BENCH_CONNECTIONS, default 20)
import pg from 'pg';
import { load, startTarget, type Result } from './support/driver.js';
import { api, statementsOfOne } from './support/probe.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SIZES = [10_000, 100_000];

const SEARCH = '/api/search?q=cotton%20shir&attr.color=black&attr.size=M&facets=color,size,material,category&limit=20';
const SUGGEST = '/api/search/suggest?prefix=cott&limit=10';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Adds entities `from`..`to` (1-based) with attributes, custom fields and memberships, then indexes them once. */
async function seed(db: pg.Client, org: string, from: number, to: number, categories: string[], brands: string[]): Promise<void> {
  await db.query('BEGIN');
  // Bulk load without the per-statement triggers, then one refresh of the new entities.
  await db.query("SET LOCAL session_replication_role = 'replica'");
  await db.query(
    `INSERT INTO catalog_entities (id, organization_id, type, slug, status, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, 'product', 'bench-' || i, 'active', now() - (i || ' seconds')::interval, now()
     FROM generate_series($2::int, $3::int) AS i`,
    [org, from, to],
  );
  await db.query(
    `INSERT INTO catalog_attributes (entity_id, locale, organization_id, title, description, updated_at)
     SELECT e.id, 'en', e.organization_id,
       (ARRAY['Classic','Slim','Organic','Relaxed','Vintage','Sport','Premium','Everyday','Travel','Heavy'])[1 + n % 10] || ' ' ||
       (ARRAY['Cotton','Linen','Wool','Denim','Silk','Fleece','Canvas','Leather'])[1 + (n / 10) % 8] || ' ' ||
       (ARRAY['Shirt','Trousers','Jacket','Hoodie','Dress','Skirt','Scarf','Sweater','Coat','Shorts','Cap','Socks'])[1 + (n / 80) % 12] || ' ' || n,
       'A ' || (ARRAY['soft','warm','light','sturdy','breathable'])[1 + n % 5] || ' piece for ' || (ARRAY['summer','winter','the office','weekends'])[1 + n % 4], now()
     FROM (SELECT id, organization_id, substring(slug from 7)::int AS n FROM catalog_entities WHERE organization_id = $1::uuid AND slug LIKE 'bench-%') e
     WHERE e.n BETWEEN $2 AND $3`,
    [org, from, to],
  );
  for (const [field, values] of [
    ['color', "ARRAY['red','blue','green','black','white','grey','navy','beige']"],
    ['size', "ARRAY['XS','S','M','L','XL']"],
    ['material', "ARRAY['cotton','linen','wool','silk','polyester','hemp']"],
  ] as const) {
    await db.query(
      `INSERT INTO catalog_custom_fields (id, organization_id, entity_id, field_name, locale, value, status, source, updated_at)
       SELECT gen_random_uuid(), e.organization_id, e.id, $4, 'en', to_jsonb((${values})[1 + (n * 7 + length($4)) % cardinality(${values})]), 'approved', 'platform', now()
       FROM (SELECT id, organization_id, substring(slug from 7)::int AS n FROM catalog_entities WHERE organization_id = $1::uuid AND slug LIKE 'bench-%') e
       WHERE e.n BETWEEN $2 AND $3`,
      [org, from, to, field],
    );
  }
  await db.query(
    `INSERT INTO catalog_entity_categories (entity_id, category_id, organization_id)
     SELECT e.id, ($4::uuid[])[1 + n % cardinality($4::uuid[])], e.organization_id
     FROM (SELECT id, organization_id, substring(slug from 7)::int AS n FROM catalog_entities WHERE organization_id = $1::uuid AND slug LIKE 'bench-%') e WHERE e.n BETWEEN $2 AND $3`,
    [org, from, to, categories],
  );
  await db.query(
    `INSERT INTO catalog_entity_brands (entity_id, brand_id, organization_id)
     SELECT e.id, ($4::uuid[])[1 + n % cardinality($4::uuid[])], e.organization_id
     FROM (SELECT id, organization_id, substring(slug from 7)::int AS n FROM catalog_entities WHERE organization_id = $1::uuid AND slug LIKE 'bench-%') e WHERE e.n BETWEEN $2 AND $3`,
    [org, from, to, brands],
  );
  await db.query("SET LOCAL session_replication_role = 'origin'");
  await db.query(
    `SELECT search_refresh_entities(array_agg(id)) FROM catalog_entities
     WHERE organization_id = $1::uuid AND slug LIKE 'bench-%' AND substring(slug from 7)::int BETWEEN $2 AND $3`,
    [org, from, to],
  );
  await db.query('COMMIT');
  // What autovacuum does after a bulk load: flush the GIN pending lists and refresh statistics.
  await db.query('VACUUM ANALYZE search_documents');
  await db.query('ANALYZE');
}

/** The plans of the statements the two scenarios send (same SQL shapes as src/modules/search/postgres.ts). */
async function plans(db: pg.Client, org: string): Promise<string> {
  const tsq = `to_tsquery(search_regconfig('en'), regexp_replace(websearch_to_tsquery(search_regconfig('en'), 'cotton shir')::text, '''$', ''':*'))`;
  const where = (without?: string) =>
    [
      `d.organization_id = '${org}'`,
      `d.locale = 'en'`,
      `d.document @@ ${tsq}`,
      `d.status::text IN ('active')`,
      `d.status::text = 'active'`,
      without === 'color' ? null : `(d.attrs @> '{"color":["black"]}'::jsonb)`,
      without === 'size' ? null : `(d.attrs @> '{"size":["M"]}'::jsonb)`,
    ]
      .filter(Boolean)
      .join(' AND ');
  const base = `d.organization_id = '${org}' AND d.locale = 'en' AND d.status = 'active' AND d.title <> ''`;
  const statements = {
    hits: `SELECT d.entity_id::text AS id, count(*) OVER () AS total FROM search_documents d WHERE ${where()} ORDER BY ts_rank_cd(d.document, ${tsq}) DESC, d.entity_created_at DESC, d.entity_id DESC LIMIT 20`,
    'facet color (disjunctive: without its own filter)': `SELECT v.value, count(*) FROM search_documents d CROSS JOIN LATERAL jsonb_array_elements_text(d.attrs -> 'color') AS v(value) WHERE ${where('color')} GROUP BY v.value`,
    suggest: `WITH candidates AS (
        (SELECT d.title AS text, 'title' AS kind, d.entity_id FROM search_documents d WHERE ${base} AND d.title ILIKE 'cott%' LIMIT 100)
        UNION ALL
        (SELECT d.title, 'title', d.entity_id FROM search_documents d WHERE ${base} AND d.title ~* '\\mcott' LIMIT 100)
        UNION ALL
        (SELECT d.title, 'title', d.entity_id FROM search_documents d WHERE ${base} AND 'cott' <% d.title LIMIT 100)
        UNION ALL
        (SELECT v.sku, 'sku', v.entity_id FROM catalog_variants v JOIN search_documents d ON d.entity_id = v.entity_id AND d.locale = 'en' AND d.status = 'active'
         WHERE v.organization_id = '${org}' AND v.sku ILIKE 'cott%' LIMIT 100)
      ), hits AS (
        SELECT text, kind, entity_id, CASE WHEN kind = 'sku' OR text ILIKE 'cott%' THEN 0 WHEN text ~* '\\mcott' THEN 1 ELSE 2 END AS tier,
          CASE WHEN kind = 'sku' THEN 1 ELSE word_similarity('cott', text) END AS sim FROM candidates
      ), best AS (
        SELECT DISTINCT ON (lower(text)) text, kind, entity_id, tier, sim FROM hits ORDER BY lower(text), tier, sim DESC
      ), top AS (
        SELECT * FROM best ORDER BY tier, sim DESC, length(text), text LIMIT 10
      )
      SELECT b.text, e.slug FROM top b JOIN catalog_entities e ON e.id = b.entity_id ORDER BY b.tier, b.sim DESC, length(b.text), b.text`,
  };
  const out: string[] = [];
  for (const [name, sql] of Object.entries(statements)) {
    const { rows } = await db.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING ON) ${sql}`);
    out.push(`-- ${name}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  return out.join('\n\n');
}

const baseline = await startTarget('bench/support/baseline.ts');
const server = await startTarget('bench/support/server.ts');
const db = new pg.Client({ connectionString: server.info.databaseUrl });
await db.connect();
try {
  const headers = { 'x-api-key': server.info.key! };
  for (const name of ['color', 'size', 'material']) await api(server, '/api/admin/entity-field-definitions', { entityType: 'product', name, type: 'string', filterable: true });
  const categories: string[] = [];
  const brands: string[] = [];
  for (let i = 0; i < 8; i += 1) categories.push((await api(server, '/api/catalog/categories', { name: `Category ${i}`, slug: `category-${i}` })).id);
  for (let i = 0; i < 5; i += 1) brands.push((await api(server, '/api/catalog/brands', { name: `Brand ${i}`, slug: `brand-${i}` })).id);
  const { rows } = await db.query('SELECT organization_id FROM catalog_field_definitions LIMIT 1');
  const org = rows[0].organization_id as string;

  let seeded = 0;
  const summary: string[] = [];
  for (const size of SIZES) {
    const started = Date.now();
    await seed(db, org, seeded + 1, size, categories, brands);
    seeded = size;
    console.log(`seeded ${size} entities in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const scenarios = [
      { name: `search q + 2 attr + 4 facets (${size})`, url: server.info.url + SEARCH, headers },
      { name: `suggest (${size})`, url: server.info.url + SUGGEST, headers },
    ];
    const statements = new Map<string, number>();
    for (const s of scenarios) statements.set(s.name, await statementsOfOne(server, () => fetch(s.url, { headers })));
    const probe = (await (await fetch(server.info.url + SEARCH, { headers })).json()) as any;
    console.log(`search: total ${probe.meta.total}, facets ${JSON.stringify(probe.meta.facets.color)}`);
    const runs = new Map<string, Result[]>();
    for (let round = 0; round < rounds; round += 1) {
      for (const s of [{ name: 'raw node:http baseline', url: baseline.info.url! }, ...scenarios]) {
        runs.set(s.name, [...(runs.get(s.name) ?? []), await load(s, seconds, connections)]);
      }
    }
    const base = median(runs.get('raw node:http baseline')!.map((r) => r.requestsPerSecond));
    summary.push(`\n| scenario | req/s | × baseline | p50 ms | p99 ms | non-2xx | SQL/request |`, '|---|---:|---:|---:|---:|---:|---:|');
    for (const [name, results] of runs) {
      const rps = median(results.map((r) => r.requestsPerSecond));
      summary.push(
        `| ${name} | ${rps} | ${(rps / base).toFixed(4)} | ${median(results.map((r) => r.p50))} | ${median(results.map((r) => r.p99))} | ${results.reduce((n, r) => n + r.non2xx + r.errors, 0)} | ${statements.get(name) ?? '—'} |`,
      );
    }
    console.log(summary.slice(-runs.size - 2).join('\n'));
    console.log(`\nEXPLAIN ANALYZE at ${size}:\n${await plans(db, org)}\n`);
  }
  console.log(`\n${connections} connections, ${rounds} alternating rounds of ${seconds} s; medians.${summary.join('\n')}`);
} finally {
  await db.end();
  await server.stop();
  await baseline.stop();
}
