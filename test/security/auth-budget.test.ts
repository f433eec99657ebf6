// Finding 3 of security round 3: the per-email sign-in budget was bypassable. The limiter read
// the first `email` of a form and better-auth the last; a JSON body opening with a UTF-8
// byte-order mark failed the limiter's parse (which then fell back to the per-address budget)
// while better-auth read it; sign-in, sign-up and reset had no per-address budget; and
// change-password answered guesses at the current password without limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

const PASSWORD = 'correct-horse-battery';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ rateLimit: { signIn: { points: 3, durationSeconds: 300 } } });
});
afterAll(() => t?.close());

const form = (body: string) => ({ method: 'POST', rawBody: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const bomJson = (value: unknown) => ({ method: 'POST', rawBody: Buffer.concat([BOM, Buffer.from(JSON.stringify(value))]), headers: { 'content-type': 'application/json' } });

/** A user whose sign-in budget is spent: one right sign-in (t.signIn), then wrong ones to 429. */
async function spentVictim(): Promise<{ email: string; token: string }> {
  const { email, token } = await t.signIn('customer');
  let status = 0;
  for (let i = 0; i < 5 && status !== 429; i++) status = (await t.request('/api/auth/sign-in/email', { body: { email, password: `wrong-guess-${i}` } })).status;
  expect(status).toBe(429);
  return { email, token };
}

describe('the per-email budget reads the email better-auth reads', () => {
  it('a form naming email twice is refused (400), so a spent budget cannot be dodged with a decoy', async () => {
    const { email } = await spentVictim();
    const res = await t.request('/api/auth/sign-in/email', form(`email=decoy-${Date.now()}%40example.com&email=${encodeURIComponent(email)}&password=${PASSWORD}`));
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toMatch(/email/);
    const proto = await t.request('/api/auth/sign-in/email', form(`email=${encodeURIComponent(email)}&password=x&__proto__=a&__proto__=b`));
    expect(proto.status, proto.text).toBe(400);
  });

  it('a JSON body opening with a byte-order mark spends the same budget and is refused once it is spent', async () => {
    const { email } = await spentVictim();
    const res = await t.request('/api/auth/sign-in/email', bomJson({ email, password: PASSWORD }));
    expect(res.status, res.text).toBe(429);
    const reset = await t.request('/api/auth/request-password-reset', bomJson({ email, redirectTo: 'http://localhost:3000/reset' }));
    expect(reset.status, reset.text).toBe(429);
  });

  it('a byte-order-mark body still signs in while the budget lasts (it is read, not refused)', async () => {
    const { email } = await t.signIn('customer');
    const res = await t.request('/api/auth/sign-in/email', bomJson({ email, password: PASSWORD }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.token).toBeTruthy();
  });

  it('duplicate JSON keys are charged to the key better-auth uses (the last)', async () => {
    const { email } = await spentVictim();
    const raw = `{"email":"decoy-${Date.now()}@example.com","email":${JSON.stringify(email)},"password":"${PASSWORD}"}`;
    const res = await t.request('/api/auth/sign-in/email', { method: 'POST', rawBody: raw, headers: { 'content-type': 'application/json' } });
    expect(res.status, res.text).toBe(429);
  });

  it('a body that is not a JSON object is 400 with the envelope, not a fall-back to another budget', async () => {
    for (const raw of ['{"email":', '[1,2]', 'null', '"x"']) {
      const res = await t.request('/api/auth/sign-in/email', { method: 'POST', rawBody: raw, headers: { 'content-type': 'application/json' } });
      expect(res.status, raw).toBe(400);
      expect(res.body.error.code, raw).toBe('BAD_REQUEST');
    }
  });
});

describe('change-password spends the sign-in budget of its user', () => {
  it('guessing the current password runs out like sign-in does: the right one is then 429 too', async () => {
    const { token } = await t.signIn('customer'); // 1 of 3 points
    const change = (currentPassword: string) => t.request('/api/auth/change-password', { bearer: token, body: { currentPassword, newPassword: 'brand-new-secret-1' } });
    const statuses = [(await change('not-it-1')).status, (await change('not-it-2')).status, (await change(PASSWORD)).status];
    expect(statuses).toEqual([422, 422, 429]);
  });
});

describe('sign-in, sign-up and reset have a per-address budget', () => {
  it('the sixth attempt from one address is 429 whichever emails they name (rateLimit.authAddress)', async () => {
    const a = await startTestApp({ rateLimit: { authAddress: { points: 5, durationSeconds: 300 } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await a.request('/api/auth/sign-in/email', { body: { email: `spray-${i}-${Date.now()}@example.com`, password: PASSWORD } })).status);
      statuses.push((await a.request('/api/auth/sign-up/email', { body: { email: `new-${Date.now()}@example.com`, password: PASSWORD, name: 'New' } })).status);
      statuses.push((await a.request('/api/auth/request-password-reset', { body: { email: `r-${Date.now()}@example.com`, redirectTo: 'http://localhost:3000/reset' } })).status);
      const refused = await a.request('/api/auth/sign-in/email', { body: { email: `spray-last-${Date.now()}@example.com`, password: PASSWORD } });
      expect(statuses).toEqual([401, 401, 401, 200, 200]);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('TOO_MANY_REQUESTS');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await a.close();
    }
  });
});
