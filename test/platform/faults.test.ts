// When the database goes away: the readiness probe answers 503 (liveness stays 200), and a session or API-key check
// that cannot run answers the same 503 (logged with stage, path and method), never an anonymous request (better-auth
// drops the database's error from a failed session lookup; auth/actor.ts recovers it). The same
// answers directly and through PgBouncer (.ci/run), where the pooler reports the dropped database first as
// `database "x" does not exist` and then as `server login has been failing` (db/errors.ts).
import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
let token: string;
let key: string;

beforeAll(async () => {
  t = await startTestApp({}, { logger: pino({ level: 'info' }, sink) });
  token = (await t.signIn('owner')).token;
  key = await t.apiKey('admin');
  expect((await t.request('/api/settings', { bearer: token })).status).toBe(200);
  const admin = new pg.Client({ connectionString: inject('adminUrl') });
  await admin.connect();
  await admin.query(`drop database ${admin.escapeIdentifier(t.databaseName)} with (force)`);
  await admin.end();
});
afterAll(() => t?.close());

describe('database unreachable', () => {
  it('GET /api/health/ready answers 503 in the error envelope with Retry-After, beside { status: error, version, database: unreachable }', async () => {
    const res = await t.request('/api/health/ready');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('temporarily unavailable') },
      status: 'error',
      version: '0.1.0',
      database: 'unreachable',
    });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('GET /api/health (liveness) still answers 200: the process is alive, restarting it would not help', async () => {
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: '0.1.0' });
  });

  it('a bearer request whose session check cannot run is a 503 with Retry-After, not anonymous', async () => {
    const res = await t.request('/api/settings', { bearer: token });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('temporarily unavailable') } });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const requestId = res.headers.get('x-request-id');
    const logged = lines.find((line) => line.reqId === requestId && line.level === 40);
    expect(logged).toMatchObject({ stage: 'session', path: '/api/settings', method: 'GET' });
  });

  it('so is an API-key request', async () => {
    const res = await t.request('/api/settings', { apiKey: key });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('temporarily unavailable') } });
    const logged = lines.find((line) => line.reqId === res.headers.get('x-request-id') && line.level === 40);
    expect(logged).toMatchObject({ stage: 'api-key', path: '/api/settings', method: 'GET' });
  });
});
