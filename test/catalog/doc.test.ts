import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

// Every catalog route of the spec (Endpoints → Catalog and Admin catalog), plus the routes this
// service adds: proposal creation, variant update and delete.
const ROUTES: Array<[string, string]> = [
  ['get', '/api/catalog/entities'],
  ['get', '/api/catalog/entities/{id}'],
  ['post', '/api/catalog/entities'],
  ['patch', '/api/catalog/entities/{id}'],
  ['delete', '/api/catalog/entities/{id}'],
  ['post', '/api/catalog/entities/{id}/publish'],
  ['post', '/api/catalog/entities/{id}/archive'],
  ['post', '/api/catalog/entities/{id}/discontinue'],
  ['post', '/api/catalog/entities/{id}/custom-fields/{fieldName}/approve'],
  ['post', '/api/catalog/entities/{id}/custom-fields/{fieldName}/reject'],
  ['post', '/api/catalog/entities/{id}/custom-fields/{fieldName}/proposals'],
  ['get', '/api/catalog/entities/{id}/field-ownership'],
  ['put', '/api/catalog/entities/{id}/field-ownership'],
  ['put', '/api/catalog/entities/{id}/attributes/{locale}'],
  ['get', '/api/catalog/entities/{id}/attributes/{locale}'],
  ['get', '/api/catalog/categories'],
  ['post', '/api/catalog/categories'],
  ['patch', '/api/catalog/categories/{categoryId}'],
  ['delete', '/api/catalog/categories/{categoryId}'],
  ['post', '/api/catalog/entities/{id}/categories/{categoryId}'],
  ['delete', '/api/catalog/entities/{id}/categories/{categoryId}'],
  ['get', '/api/catalog/brands'],
  ['post', '/api/catalog/brands'],
  ['patch', '/api/catalog/brands/{brandId}'],
  ['delete', '/api/catalog/brands/{brandId}'],
  ['post', '/api/catalog/entities/{id}/brands/{brandId}'],
  ['delete', '/api/catalog/entities/{id}/brands/{brandId}'],
  ['post', '/api/catalog/entities/{id}/options'],
  ['post', '/api/catalog/options/{optionTypeId}/values'],
  ['post', '/api/catalog/entities/{id}/variants'],
  ['post', '/api/catalog/entities/{id}/variants/generate'],
  ['post', '/api/catalog/entities/{id}/variants/quick'],
  ['post', '/api/catalog/entities/{id}/variants/bulk'],
  ['patch', '/api/catalog/variants/{variantId}'],
  ['delete', '/api/catalog/variants/{variantId}'],
  ['get', '/api/admin/custom-field-proposals'],
  ['get', '/api/admin/entity-field-definitions'],
  ['post', '/api/admin/entity-field-definitions'],
  ['patch', '/api/admin/entity-field-definitions/{id}'],
  ['post', '/api/admin/entity-field-definitions/{id}/archive'],
];

let t: TestApp;
let doc: any;

beforeAll(async () => {
  t = await startTestApp();
  await t.request('/api/catalog/entities', { apiKey: await t.apiKey('admin') });
  doc = (await t.request('/api/doc')).body;
});
afterAll(() => t?.close());

describe('catalog in /api/doc', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  });

  it.each(ROUTES)('documents %s %s with its inputs, response schema and errors', (method, path) => {
    const op = doc.paths[path]?.[method];
    expect(op, `${method} ${path}`).toBeDefined();
    for (const param of path.match(/\{(\w+)\}/g) ?? []) {
      expect(op.parameters.map((p: any) => p.name)).toContain(param.slice(1, -1));
    }
    // A write whose only inputs are path parameters (publish, archive, memberships) has no body.
    const pathOnly = method === 'post' && ['/publish', '/archive', '/discontinue', '/categories/{categoryId}', '/brands/{brandId}'].some((end) => path.endsWith(end));
    if ((method === 'post' || method === 'put' || method === 'patch') && !pathOnly) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      expect(schema?.type).toBe('object');
    }
    if (pathOnly) expect(op.requestBody).toBeUndefined();
    const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
    expect(success.length).toBeGreaterThan(0);
    const body = op.responses[success[0]!].content['application/json'].schema;
    expect(JSON.stringify(body)).toMatch(/\$ref|"type"/);
    for (const status of ['401', '403', '404', '422']) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
  });

  it('documents both success statuses of the find-or-create routes', () => {
    for (const path of ['/api/catalog/entities/{id}/variants/quick', '/api/catalog/entities/{id}/variants/bulk', '/api/catalog/entities/{id}/variants/generate']) {
      expect(Object.keys(doc.paths[path].post.responses)).toEqual(expect.arrayContaining(['200', '201']));
    }
  });

  it('describes the list query and the entity', () => {
    const list = doc.paths['/api/catalog/entities'].get;
    expect(list.parameters.map((p: any) => p.name)).toEqual(['type', 'status', 'category', 'brand', 'page', 'limit', 'first', 'after', 'last', 'before', 'sort', 'include']);
    const limit = list.parameters.find((p: any) => p.name === 'limit');
    // Capped, not refused: any larger limit is clamped to 100 (meta.pagination.limit says so).
    expect(limit.schema).toMatchObject({ default: 20, minimum: 1 });
    expect(JSON.stringify(limit)).toContain('100');
    const entity = doc.components.schemas.CatalogEntity;
    expect(Object.keys(entity.properties)).toEqual(expect.arrayContaining(['id', 'type', 'slug', 'status', 'metadata', 'taxClassId', 'variants', 'customFields']));
    expect(entity.properties.id).toMatchObject({ type: 'string', format: 'uuid' });
  });
});
