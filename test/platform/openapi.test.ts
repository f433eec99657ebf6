// GET /api/doc is a valid OpenAPI 3.0 document describing every route the route builder
// declares, with request schemas, constraints and error responses; /api/reference serves an
// explorer from the npm package, with no CDN.
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/graphql/operation.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let doc: any;

beforeAll(async () => {
  t = await startTestApp();
  const res = await t.request('/api/doc');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => t?.close());

describe('/api/doc', () => {
  it('passes an OpenAPI validator', async () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  });

  it('lists every declared REST route with its GraphQL twin', () => {
    const declared = [...operations.values()].filter((op) => op.rest);
    expect(declared.length).toBeGreaterThan(0);
    for (const op of declared) {
      const path = `/api${op.rest!.path.replace(/:(\w+)/g, '{$1}')}`;
      const entry = doc.paths[path]?.[op.rest!.method.toLowerCase()];
      expect(entry, `${op.rest!.method} ${path}`).toBeDefined();
      expect(entry.operationId).toBe(op.name);
      expect(entry.description).toContain(op.name);
    }
  });

  it('has no duplicated parameters and no path params inside bodies', () => {
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        const params = (op.parameters ?? []).map((p: any) => `${p.in}:${p.name}`);
        expect(new Set(params).size, `${method} ${path}`).toBe(params.length);
        const pathParams = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        const bodyProps = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
        for (const name of pathParams) expect(bodyProps, `${method} ${path}`).not.toContain(name);
        if (['post', 'put', 'patch'].includes(method))
          expect(
            params.filter((p: string) => p.startsWith('query:')),
            `${method} ${path}`,
          ).toEqual([]);
      }
    }
  });

  it('documents error responses and the { data } envelope', () => {
    const patch = doc.paths['/api/settings/{group}'].patch;
    for (const status of ['400', '401', '403', '413', '422', '429', '500', '503']) {
      expect(patch.responses[status]?.content['application/json'].schema.$ref, status).toBe('#/components/schemas/ErrorResponse');
    }
    expect(patch.responses['200'].content['application/json'].schema.required).toEqual(['data']);
    expect(patch.requestBody.content['application/json'].schema.type).toBe('object');
    expect(doc.components.schemas.File).toBeUndefined();
  });

  it('carries constraints from the zod inputs', () => {
    const group = doc.paths['/api/settings/{group}'].get.parameters.find((p: any) => p.name === 'group');
    expect(group.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 64 });
  });

  it('documents the identity and meta routes too', () => {
    for (const path of ['/api/health', '/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/get-session']) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});

describe('/api/reference', () => {
  it('serves the explorer page and its bundle locally', async () => {
    const page = await t.request('/api/reference');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('/api/reference/standalone.js');
    expect(page.text).toContain("url: '/api/doc'");
    expect(page.text).not.toMatch(/https?:\/\/(cdn|unpkg|jsdelivr)/);
    const bundle = await t.request('/api/reference/standalone.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect(bundle.text.length).toBeGreaterThan(1_000_000);
  });
});

describe('/api/doc tells the truth about answers (issue 23)', () => {
  const schemas = () => doc.components.schemas;

  it('marks nullable GraphQL fields nullable, and requires only non-null fields every route selects', () => {
    expect(schemas().CatalogEntity.properties.taxClassId.nullable).toBe(true);
    expect(schemas().CatalogEntity.required).not.toContain('taxClassId');
    expect(schemas().Pagination.properties.endCursor.nullable).toBe(true);
    expect(schemas().CatalogEntity.required).toEqual(expect.arrayContaining(['id', 'slug', 'status']));
    // An embed is present over REST only when `include` names it: never required.
    expect(schemas().CatalogEntity.required).not.toContain('variants');
    expect(schemas().CatalogEntity.properties.variants.description).toContain('include=variants');
  });

  it('names every enum once and references it instead of inlining copies', () => {
    const enums = new Map<string, string>();
    for (const [name, schema] of Object.entries<any>(schemas())) if (schema.enum) enums.set([...schema.enum].sort().join(','), name);
    expect(enums.size).toBeGreaterThan(5);
    const inline: string[] = [];
    const walk = (node: any, where: string) => {
      if (!node || typeof node !== 'object') return;
      if (node.enum && enums.has([...node.enum].sort().join(',')) && !where.startsWith('components/schemas/' + enums.get([...node.enum].sort().join(',')))) inline.push(where);
      for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
    };
    walk(doc.paths, 'paths');
    walk(doc.components.schemas, 'components/schemas');
    expect(inline).toEqual([]);
    const status = doc.paths['/api/catalog/entities'].get.parameters.find((p: any) => p.name === 'status');
    expect(JSON.stringify(status.schema)).toContain('#/components/schemas/CatalogEntityStatus');
  });

  it('has no unused components and describes every tag it uses', () => {
    const text = JSON.stringify(doc.paths) + JSON.stringify(doc.components.schemas);
    for (const name of Object.keys(schemas())) expect(text, name).toContain(`"#/components/schemas/${name}"`);
    const used = new Set(Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item).flatMap((op) => op.tags ?? [])));
    expect(doc.tags.map((tag: any) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
  });

  it('names the order and catalog entity path parameter {id} on every route', () => {
    const names = (prefix: string) =>
      new Set(
        Object.keys(doc.paths)
          .filter((p) => p.startsWith(prefix))
          .map((p) => p.slice(prefix.length).match(/^\{(\w+)\}/)?.[1])
          .filter(Boolean),
      );
    expect(names('/api/orders/')).toEqual(new Set(['id']));
    expect(names('/api/me/orders/')).toEqual(new Set(['id']));
    expect(names('/api/catalog/entities/')).toEqual(new Set(['id']));
  });

  it('types the settings groups, the nested analytics filters and the media bytes', () => {
    expect(doc.paths['/api/settings/general'].patch.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/SettingsGeneralPatch');
    expect(doc.paths['/api/settings/policies'].get.responses['200'].content['application/json'].schema.properties.data.$ref).toBe('#/components/schemas/SettingsPoliciesValues');
    expect(schemas().SettingsPoliciesPatch.properties.refundDailyCap).toMatchObject({ type: 'integer', nullable: true });
    expect(schemas().AnalyticsFilter.properties.and.items.$ref).toBe('#/components/schemas/AnalyticsFilter');
    expect(Object.keys(doc.paths['/api/media/{id}/content'].get.responses['200'].content)).toEqual(expect.arrayContaining(['image/jpeg', 'image/png', 'application/pdf']));
    expect(doc.paths['/api/auth/sign-out'].post.security.length).toBeGreaterThan(0);
  });
});
