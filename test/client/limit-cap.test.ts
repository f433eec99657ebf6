// Issue 13, defect 2: `limit` above the cap is clamped, not refused, on every list (REST and
// GraphQL), and the applied value is in meta.pagination.limit; zero, negative or non-numeric
// values stay 422.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { operations } from '../../src/graphql/operation.js';

let t: TestApp;
let admin: string;
let customer: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.apiKey('admin');
  customer = (await t.signIn('customer')).token;
});

/** The /me lists answer a customer's session only; every other list an admin key. */
function credentialFor(op: { access: unknown }) {
  const access = op.access as { customerSession?: boolean };
  return typeof access === 'object' && access.customerSession ? { bearer: customer } : { apiKey: admin };
}
afterAll(() => t?.close());

function lists() {
  return [...operations.values()].filter((op) => op.paginated && op.rest?.method === 'GET');
}

/** A path with its params filled: entity types get a real type name, ids a fresh UUID. */
function concrete(path: string): string {
  return `/api${path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => (name === 'entityType' ? 'settings' : randomUUID()))}`;
}

describe('page size is capped at 100', () => {
  it('covers the lists of the registry', () => {
    expect(lists().length).toBeGreaterThanOrEqual(15);
  });

  it('answers limit=1000 with meta.pagination.limit 100 on every list over REST', async () => {
    const answered: string[] = [];
    for (const op of lists()) {
      const res = await t.request(`${concrete(op.rest!.path)}?limit=1000`, credentialFor(op));
      // A list under an id that does not exist may be 404; it must never be 422 for the limit.
      expect([200, 404], `${op.name}: ${res.text}`).toContain(res.status);
      if (res.status === 200) {
        // Search keeps the spec's flat meta (total, page, limit, facets); other lists meta.pagination.
        expect(res.body.meta?.pagination?.limit ?? res.body.meta?.limit, `${op.name}: ${res.text.slice(0, 300)}`).toBe(100);
        expect(res.body.data.length).toBeLessThanOrEqual(100);
        answered.push(op.name);
      }
    }
    expect(answered.length).toBeGreaterThanOrEqual(12);
  });

  it('keeps 422 for zero, negative and non-numeric limits', async () => {
    for (const op of lists()) {
      for (const bad of ['0', '-1', 'ten']) {
        const res = await t.request(`${concrete(op.rest!.path)}?limit=${bad}`, credentialFor(op));
        // A list under a name or id that does not exist may answer 404 before reading its query.
        expect(op.rest!.path.includes(':') ? [422, 404] : [422], `${op.name} limit=${bad}`).toContain(res.status);
      }
    }
  });

  it('clamps over GraphQL too (audit keeps its default 50)', async () => {
    const res = await t.graphql('{ catalogEntities(limit: 1000) { meta { pagination { limit } } } auditEntries { meta { pagination { limit } } } }', {}, { apiKey: admin });
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data!.catalogEntities.meta.pagination.limit).toBe(100);
    expect(res.body.data!.auditEntries.meta.pagination.limit).toBe(50);
    const capped = await t.graphql('{ auditEntries(limit: 5000) { meta { pagination { limit } } } }', {}, { apiKey: admin });
    expect(capped.body.data!.auditEntries.meta.pagination.limit).toBe(100);
    const refused = await t.graphql('{ catalogEntities(limit: -1) { data { id } } }', {}, { apiKey: admin });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});
