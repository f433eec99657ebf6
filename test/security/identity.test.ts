// The identity features the spec lists: two-factor (with requiredForRoles enforced), email
// verification, password reset through the mail transport, and social providers configured by
// client id and secret (followed to the provider's redirect: there is no network here).
import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_BASE_URL, type TestApp } from '../support/app.js';

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), as authenticator apps compute it. */
function totp(base32Secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 15;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const ORIGIN = { origin: TEST_BASE_URL };
const cookieOf = (res: { headers: Headers }, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`) || c.includes(`.${name}=`));

async function mailsTo(dir: string, to: string, count = 1): Promise<Array<{ subject: string; text: string }>> {
  for (let i = 0; i < 50; i++) {
    const files = await fs.readdir(path.join(dir, 'mail')).catch(() => [] as string[]);
    const mails = await Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, 'mail', f), 'utf8'))));
    const mine = mails.filter((m) => JSON.stringify(m.to).includes(to));
    if (mine.length >= count) return mine;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to}`);
}

const linkIn = (text: string) => new URL(/(https?:\/\/\S+)/.exec(text)![1]!);

describe('two-factor sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ auth: { twoFactor: { enabled: true, requiredForRoles: ['admin'] } } });
  });
  afterAll(() => t?.close());

  it('a role in requiredForRoles reaches nothing but enrolment until it has enrolled', async () => {
    const admin = await t.signIn('admin');
    const refused = await t.request('/api/settings', { bearer: admin.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('TWO_FACTOR_REQUIRED');
    expect((await t.graphql('{ settings }', {}, { bearer: admin.token })).status).toBe(403);

    const enabled = await t.request('/api/auth/two-factor/enable', { bearer: admin.token, body: { password: 'correct-horse-battery' } });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body.backupCodes.length).toBeGreaterThan(0);
    const secret = new URL(enabled.body.totpURI).searchParams.get('secret')!;
    const verified = await t.request('/api/auth/two-factor/verify-totp', { bearer: admin.token, body: { code: totp(secret) } });
    expect(verified.status, verified.text).toBe(200);

    // Enrolled: a new sign-in stops at the second factor, then the TOTP completes it.
    const first = await t.request('/api/auth/sign-in/email', { body: { email: admin.email, password: 'correct-horse-battery' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ twoFactorRedirect: true });
    expect(first.body.token).toBeUndefined();
    const challenge = cookieOf(first, 'two_factor')!;
    expect(challenge).toBeTruthy();
    const wrong = await t.request('/api/auth/two-factor/verify-totp', { cookie: challenge, headers: ORIGIN, body: { code: '000000' } });
    expect(wrong.status).toBe(401);
    const second = await t.request('/api/auth/two-factor/verify-totp', { cookie: challenge, headers: ORIGIN, body: { code: totp(secret) } });
    expect(second.status, second.text).toBe(200);
    expect((await t.request('/api/settings', { bearer: second.body.token })).status).toBe(200);
  });

  it('roles outside requiredForRoles may enrol but need not', async () => {
    const staff = await t.signIn('staff');
    expect((await t.request('/api/catalog/entities', { bearer: staff.token })).status).toBe(200);
  });
});

describe('email verification', () => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'commerce-mail-'));
    t = await startTestApp({ dataDir, auth: { requireEmailVerification: true } });
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('a new account signs in only after following the mailed link', async () => {
    const email = `verify-${Date.now()}@example.com`;
    const signUp = await t.request('/api/auth/sign-up/email', { body: { email, password: 'correct-horse-battery', name: 'New' } });
    expect(signUp.status, signUp.text).toBe(200);
    expect(signUp.body.token).toBeNull();
    const early = await t.request('/api/auth/sign-in/email', { body: { email, password: 'correct-horse-battery' } });
    expect(early.status).toBe(403);
    expect(early.body.error.details.reason).toBe('EMAIL_NOT_VERIFIED');

    const [mail] = await mailsTo(dataDir, email);
    expect(mail!.subject).toBe('Confirm your email address');
    const link = linkIn(mail!.text);
    expect(link.pathname).toBe('/api/auth/verify-email');
    const tampered = await t.request(`${link.pathname}?token=${link.searchParams.get('token')!.slice(0, -4)}abcd`);
    expect(tampered.status).not.toBe(200);
    const followed = await fetch(`${t.url}${link.pathname}${link.search}`, { redirect: 'manual' });
    expect([200, 302]).toContain(followed.status);

    const signedIn = await t.request('/api/auth/sign-in/email', { body: { email, password: 'correct-horse-battery' } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.token).toBeTruthy();
  });
});

describe('password reset', () => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'commerce-mail-'));
    t = await startTestApp({ dataDir });
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('the mailed token sets a new password once, ending the old sessions', async () => {
    const customer = await t.signIn('customer');
    const asked = await t.request('/api/auth/request-password-reset', { body: { email: customer.email, redirectTo: `${TEST_BASE_URL}/account/reset` } });
    expect(asked.status, asked.text).toBe(200);
    // The same answer for an address nobody has: no account enumeration.
    const unknown = await t.request('/api/auth/request-password-reset', { body: { email: 'nobody@example.com', redirectTo: `${TEST_BASE_URL}/account/reset` } });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(asked.body);

    const [mail] = await mailsTo(dataDir, customer.email);
    const link = linkIn(mail!.text);
    const token = link.pathname.split('/').pop()!;
    expect(link.pathname).toBe(`/api/auth/reset-password/${token}`);

    const reset = await t.request('/api/auth/reset-password', { body: { token, newPassword: 'a-brand-new-passphrase' } });
    expect(reset.status, reset.text).toBe(200);
    expect((await t.request('/api/auth/reset-password', { body: { token, newPassword: 'another-passphrase-1' } })).status).toBe(422);
    expect((await t.request('/api/auth/sign-in/email', { body: { email: customer.email, password: 'correct-horse-battery' } })).status).toBe(401);
    expect((await t.request('/api/auth/sign-in/email', { body: { email: customer.email, password: 'a-brand-new-passphrase' } })).status).toBe(200);
    // The reset ended the sessions that existed before it.
    expect((await t.request('/api/orders', { bearer: customer.token })).status).toBe(401);
  });
});

describe('social providers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      auth: {
        socialProviders: {
          github: { clientId: 'gh-client-id', clientSecret: 'gh-secret' },
          google: { clientId: 'g-client-id.apps.googleusercontent.com', clientSecret: 'g-secret' },
        },
      },
    });
  });
  afterAll(() => t?.close());

  it.each([
    ['github', 'https://github.com/login/oauth/authorize', 'gh-client-id'],
    ['google', 'https://accounts.google.com/o/oauth2/v2/auth', 'g-client-id.apps.googleusercontent.com'],
  ])('%s sign-in redirects to the provider with the configured client id', async (provider, authorize, clientId) => {
    const res = await t.request('/api/auth/sign-in/social', { body: { provider, callbackURL: `${TEST_BASE_URL}/account` } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.redirect).toBe(true);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(authorize);
    expect(url.searchParams.get('client_id')).toBe(clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(`${TEST_BASE_URL}/api/auth/callback/${provider}`);
    expect(url.searchParams.get('state')).toBeTruthy();
  });

  it('an unconfigured provider is refused', async () => {
    const res = await t.request('/api/auth/sign-in/social', { body: { provider: 'facebook', callbackURL: '/' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('a callback without a valid state does not sign anyone in', async () => {
    const res = await fetch(`${t.url}/api/auth/callback/github?code=x&state=forged`, { redirect: 'manual' });
    expect(res.status).toBeLessThan(500);
    expect(res.headers.getSetCookie().some((c) => c.includes('session_token=') && !c.includes('Max-Age=0'))).toBe(false);
  });
});

describe('two-factor management endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ auth: { twoFactor: { enabled: true } } });
  });
  afterAll(() => t?.close());

  it('get-totp-uri and generate-backup-codes need the password; a backup code completes a sign-in once; disable needs the password', async () => {
    const user = await t.signIn('customer');
    const enabled = await t.request('/api/auth/two-factor/enable', { bearer: user.token, body: { password: 'correct-horse-battery' } });
    const secret = new URL(enabled.body.totpURI).searchParams.get('secret')!;
    // Completing enrolment replaces the session: the new token comes in set-auth-token (the
    // body still names the old one).
    const enrolled = await t.request('/api/auth/two-factor/verify-totp', { bearer: user.token, body: { code: totp(secret) } });
    expect(enrolled.status).toBe(200);
    const session = (enrolled.headers.get('set-auth-token') ?? enrolled.body.token) as string;

    expect((await t.request('/api/auth/two-factor/get-totp-uri', { bearer: session, body: { password: 'wrong-password-here' } })).status).toBeGreaterThanOrEqual(400);
    const uri = await t.request('/api/auth/two-factor/get-totp-uri', { bearer: session, body: { password: 'correct-horse-battery' } });
    expect(uri.status, uri.text).toBe(200);
    expect(uri.body.totpURI).toContain(`secret=${secret}`);
    const codes = await t.request('/api/auth/two-factor/generate-backup-codes', { bearer: session, body: { password: 'correct-horse-battery' } });
    expect(codes.status).toBe(200);
    const backup = codes.body.backupCodes[0] as string;

    const first = await t.request('/api/auth/sign-in/email', { body: { email: user.email, password: 'correct-horse-battery' } });
    const challenge = cookieOf(first, 'two_factor')!;
    const viaBackup = await t.request('/api/auth/two-factor/verify-backup-code', { cookie: challenge, headers: ORIGIN, body: { code: backup } });
    expect(viaBackup.status, viaBackup.text).toBe(200);
    const again = await t.request('/api/auth/sign-in/email', { body: { email: user.email, password: 'correct-horse-battery' } });
    const reused = await t.request('/api/auth/two-factor/verify-backup-code', { cookie: cookieOf(again, 'two_factor')!, headers: ORIGIN, body: { code: backup } });
    expect(reused.status).toBe(401);

    const token = viaBackup.body.token as string;
    expect((await t.request('/api/auth/two-factor/disable', { bearer: token, body: { password: 'wrong-password-here' } })).status).toBeGreaterThanOrEqual(400);
    expect((await t.request('/api/auth/two-factor/disable', { bearer: token, body: { password: 'correct-horse-battery' } })).status).toBe(200);
    const plain = await t.request('/api/auth/sign-in/email', { body: { email: user.email, password: 'correct-horse-battery' } });
    expect(plain.body.token).toBeTruthy();
  });
});

describe('change of email', () => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'commerce-mail-'));
    t = await startTestApp({ dataDir });
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('a verified user confirms the change from the old address first', async () => {
    const user = await t.signIn('customer');
    await t.app.db.user.update({ where: { id: user.userId }, data: { emailVerified: true } });
    const newEmail = `moved-${Date.now()}@example.com`;
    const res = await t.request('/api/auth/change-email', { bearer: user.token, body: { newEmail, callbackURL: `${TEST_BASE_URL}/account` } });
    expect(res.status, res.text).toBe(200);
    const [mail] = await mailsTo(dataDir, user.email);
    expect(mail!.subject).toBe('Confirm the change of your email address');
    expect(mail!.text).toContain(newEmail);
    // Nothing changes until the link is followed.
    expect((await t.app.db.user.findUniqueOrThrow({ where: { id: user.userId } })).email).toBe(user.email);
  });
});
