import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createEntity, eventsOf } from './helpers.js';

let t: TestApp;
let admin: string;
let storefront: string;
const MISSING = '2b1f3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  storefront = await t.apiKey('storefront');
});
afterAll(() => t?.close());

describe('localized attributes', () => {
  it('PUT sets a locale (replacing it), GET reads it back, per locale', async () => {
    const entity = await createEntity(t, admin, { status: 'active' });
    const en = await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, {
      method: 'PUT',
      apiKey: admin,
      body: { title: 'Linen shirt', description: 'Breezy.', seoTitle: 'Linen shirt | Shop', seoDescription: 'A breezy linen shirt' },
    });
    expect(en.status).toBe(200);
    expect(en.body.data).toMatchObject({ entityId: entity.id, locale: 'en', title: 'Linen shirt', seoTitle: 'Linen shirt | Shop' });
    await t.request(`/api/catalog/entities/${entity.id}/attributes/de-de`, { method: 'PUT', apiKey: admin, body: { title: 'Leinenhemd' } });
    const de = await t.request(`/api/catalog/entities/${entity.id}/attributes/de-DE`, { apiKey: storefront });
    expect(de.status).toBe(200);
    expect(de.body.data).toMatchObject({ locale: 'de-DE', title: 'Leinenhemd', description: null });
    const replaced = await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: 'Linen shirt II' } });
    expect(replaced.body.data).toMatchObject({ title: 'Linen shirt II', description: null, seoTitle: null });
    const all = await t.request(`/api/catalog/entities/${entity.slug}?include=attributes`, { apiKey: storefront });
    expect(all.body.data.attributes.map((a: any) => a.locale)).toEqual(['de-DE', 'en']);
    expect((await eventsOf(t, entity.id)).map((e) => e.payload.changes?.join())).toEqual([undefined, 'attributes.en', 'attributes.de-DE', 'attributes.en']);
  });

  it('404 for a locale never set, an unknown entity, or a draft seen without catalog:read:unpublished', async () => {
    const entity = await createEntity(t, admin);
    await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: 'Draft' } });
    expect((await t.request(`/api/catalog/entities/${entity.id}/attributes/fr`, { apiKey: admin })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { apiKey: admin })).status).toBe(200);
    expect((await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { apiKey: storefront })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${MISSING}/attributes/en`, { apiKey: admin })).status).toBe(404);
    expect((await t.request(`/api/catalog/entities/${MISSING}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: 'x' } })).status).toBe(404);
  });

  it('422 for a bad locale or field, 401 and 403', async () => {
    const entity = await createEntity(t, admin);
    const badLocale = await t.request(`/api/catalog/entities/${entity.id}/attributes/not_a_locale!`, { method: 'PUT', apiKey: admin, body: { title: 'x' } });
    expect(badLocale.status).toBe(422);
    expect(badLocale.body.error.details[0].field).toBe('locale');
    const tooLong = await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { seoTitle: 'x'.repeat(201) } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error.details[0].field).toBe('seoTitle');
    expect((await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: admin, body: { title: { text: 'x' } } })).status).toBe(422);
    expect((await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', apiKey: storefront, body: { title: 'x' } })).status).toBe(403);
    expect((await t.request(`/api/catalog/entities/${entity.id}/attributes/en`, { method: 'PUT', body: { title: 'x' } })).status).toBe(401);
    expect((await t.request(`/api/catalog/entities/${entity.id}/attributes/en`)).status).toBe(401);
  });

  it('is served by GraphQL too', async () => {
    const entity = await createEntity(t, admin, { status: 'active' });
    const set = await t.graphql(`mutation($id: UUID!) { catalogEntityAttributesSet(id: $id, locale: "en", title: "Hat") { title locale } }`, { id: entity.id }, { apiKey: admin });
    expect(set.body.data).toEqual({ catalogEntityAttributesSet: { title: 'Hat', locale: 'en' } });
    const get = await t.graphql(`query($id: UUID!) { catalogEntityAttributes(id: $id, locale: "en") { title } }`, { id: entity.id }, { apiKey: storefront });
    expect(get.body.data).toEqual({ catalogEntityAttributes: { title: 'Hat' } });
  });
});
