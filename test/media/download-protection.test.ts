// Issue 22, finding 2: the file sold by a digital product (an attachment with role `download`)
// is handed out only by /me/orders/:id/downloads of a paid order. Catalog answers (REST
// include=media, GraphQL entity and variant media) leave such attachments out, and the asset's
// own routes (mediaAsset, GET /media/:id, ?signed=true) are 404, for every caller except staff
// with media:write, whose answers are never `public`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { openStore, ORDER_TEST_CONFIG, product, type Store } from '../orders/helpers.js';
import { PDF, upload } from './helpers.js';

let t: TestApp;
let store: Store;
let ebook: string;
let variantId: string;
let book: string;
let variantBook: string;
let cover: string;
let readers: Array<[string, { apiKey?: string; bearer?: string }]>;

async function uploadPdf(tail: string): Promise<string> {
  const res = await upload(t, store.admin, { file: { bytes: Buffer.concat([PDF, Buffer.from(`% ${tail}\n`)]), type: 'application/pdf', name: `${tail}.pdf` } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  ebook = await product(store, { type: 'digitalDownload', price: 900, stock: 10, title: 'The E-Book' });
  const variant = await t.request(`/api/catalog/entities/${ebook}/variants/quick`, { apiKey: store.admin, body: { options: { format: 'epub' } } });
  expect(variant.status, variant.text).toBe(201);
  variantId = variant.body.data.id;
  [book, variantBook, cover] = [await uploadPdf('book'), await uploadPdf('book-epub'), await uploadPdf('cover')];
  for (const body of [
    { entityId: ebook, mediaAssetId: book, role: 'download' },
    { entityId: ebook, mediaAssetId: variantBook, role: 'download', variantId },
    { entityId: ebook, mediaAssetId: cover, role: 'gallery' },
  ]) {
    const attached = await t.request('/api/media/attach', { apiKey: store.admin, body });
    expect(attached.status, attached.text).toBe(201);
  }
  const customer = await t.signIn('customer');
  const staff = await t.signIn('staff'); // catalog staff without media:write
  readers = [
    ['storefront key', { apiKey: store.storefront }],
    ['customer', { bearer: customer.token }],
    ['staff without media:write', { bearer: staff.token }],
  ];
});
afterAll(() => t?.close());

const ENTITY_MEDIA = `query($id: String!) { catalogEntity(idOrSlug: $id) { media { role mediaAssetId asset { id url } } variants { id media { role asset { id url } } } } }`;

describe('download-role media stay out of catalog answers', () => {
  it('REST include=media (one entity and the list) shows the gallery file and no download to catalog readers', async () => {
    for (const [who, auth] of readers) {
      for (const path of [`/api/catalog/entities/${ebook}?include=media`, `/api/catalog/entities?include=media&type=digitalDownload&limit=100`]) {
        const res = await t.request(path, auth);
        expect(res.status, `${who} ${path}: ${res.text}`).toBe(200);
        const entity = Array.isArray(res.body.data) ? res.body.data.find((e: { id: string }) => e.id === ebook) : res.body.data;
        expect(
          entity.media.map((m: { mediaAssetId: string }) => m.mediaAssetId),
          who,
        ).toEqual([cover]);
        for (const id of [book, variantBook]) expect(res.text, `${who} ${path}`).not.toContain(id);
      }
    }
  });

  it('GraphQL entity and variant media leave download attachments out', async () => {
    for (const [who, auth] of readers) {
      const res = await t.graphql(ENTITY_MEDIA, { id: ebook }, auth);
      expect(res.body.errors, who).toBeUndefined();
      expect(
        res.body.data.catalogEntity.media.map((m: { mediaAssetId: string }) => m.mediaAssetId),
        who,
      ).toEqual([cover]);
      expect(res.body.data.catalogEntity.variants.find((v: { id: string }) => v.id === variantId).media, who).toEqual([]);
      for (const id of [book, variantBook]) expect(JSON.stringify(res.body), who).not.toContain(id);
    }
  });

  it('the asset routes answer 404 for a download file: mediaAsset, GET /media/:id (302) and ?signed=true', async () => {
    for (const [who, auth] of readers) {
      for (const id of [book, variantBook]) {
        const gql = await t.graphql('query($id: UUID!) { mediaAsset(id: $id) { id url } }', { id }, auth);
        expect(gql.body.data?.mediaAsset ?? null, who).toBeNull();
        expect(gql.body.errors?.[0]?.extensions?.code, who).toBe('NOT_FOUND');
        const signed = await t.request(`/api/media/${id}?signed=true`, auth);
        expect(signed.status, `${who}: ${signed.text}`).toBe(404);
        const redirect = await t.request(`/api/media/${id}`, auth); // fetch follows the 302 to the bytes
        expect(redirect.status, who).toBe(404);
      }
      // the product picture stays readable
      expect((await t.request(`/api/media/${cover}?signed=true`, auth)).status, who).toBe(200);
    }
  });

  it('staff with media:write see download files, in answers that are never public', async () => {
    const res = await t.request(`/api/catalog/entities/${ebook}?include=media`, { apiKey: store.admin });
    expect(res.status).toBe(200);
    expect(res.body.data.media.map((m: { mediaAssetId: string }) => m.mediaAssetId).sort()).toEqual([book, variantBook, cover].sort());
    expect(res.headers.get('cache-control')).not.toMatch(/public/);
    const gql = await t.graphql('query($id: UUID!) { mediaAsset(id: $id) { id url } }', { id: book }, { apiKey: store.admin });
    expect(gql.body.data.mediaAsset.id).toBe(book);
    expect((await t.request(`/api/media/${book}?signed=true`, { apiKey: store.admin })).status).toBe(200);
  });
});
