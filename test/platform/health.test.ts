// Liveness vs readiness: /api/health answers while the process serves; /api/health/ready also
// needs the database and every migration of this version (the unreachable database case is in
// faults.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('health probes', () => {
  it('GET /api/health/ready is 200 with no pending migration on a migrated database', async () => {
    const res = await t.request('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: '0.1.0', database: 'ok', migrations: { pending: [] } });
    expect((await t.request('/api/health')).body).toEqual({ status: 'ok', version: '0.1.0' });
  });

  it('is 503 naming the migration that is not applied, and ready again once it is', async () => {
    const [last] = await t.app.db.$queryRaw<Array<{ migration_name: string }>>`select migration_name from _prisma_migrations order by migration_name desc limit 1`;
    await t.app.db.$executeRaw`update _prisma_migrations set finished_at = null where migration_name = ${last!.migration_name}`;
    try {
      const res = await t.request('/api/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: { code: 'SERVICE_UNAVAILABLE', message: `Migrations not applied: ${last!.migration_name}` },
        status: 'error',
        version: '0.1.0',
        database: 'ok',
        migrations: { pending: [last!.migration_name] },
      });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await t.request('/api/health')).status).toBe(200);
    } finally {
      await t.app.db.$executeRaw`update _prisma_migrations set finished_at = now() where migration_name = ${last!.migration_name}`;
    }
    expect((await t.request('/api/health/ready')).status).toBe(200);
  });

  // Last: the app stays draining. listen()'s shutdown() calls drain() on SIGTERM (drain.test.ts
  // drives it through a real process); here the answer's shape.
  it('is 503 draining (error envelope, Retry-After) once shutdown has begun, while liveness stays 200', async () => {
    t.app.http.drain?.();
    const res = await t.request('/api/health/ready');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('Shutting down') }, status: 'error', version: '0.1.0', draining: true });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.request('/api/health')).status).toBe(200);
  });
});
