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
        if (['post', 'put', 'patch'].includes(method)) expect(params.filter((p: string) => p.startsWith('query:')), `${method} ${path}`).toEqual([]);
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
