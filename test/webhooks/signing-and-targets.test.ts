// Standard Webhooks signing against the standard's published example, and the SSRF guard at
// delivery time (the address actually connected to is the one checked).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSecret, sign, signatureHeaders, verify } from '../../src/modules/webhooks/signing.js';
import { sendWebhook, parseRetryAfter } from '../../src/modules/webhooks/send.js';
import { isNonPublicAddress } from '../../src/modules/webhooks/targets.js';
import { startReceiver, type Receiver } from './receiver.js';

describe('Standard Webhooks signature', () => {
  it('matches the example in the Standard Webhooks reference implementation', () => {
    expect(sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('verifies its own headers, and refuses stale timestamps, other secrets and changed bodies', () => {
    const secret = generateSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders(secret, 'msg_1', now, '{"a":1}');
    expect(verify(secret, headers, '{"a":1}')).toBe(true);
    expect(verify(secret, headers, '{"a":2}')).toBe(false);
    expect(verify(generateSecret(), headers, '{"a":1}')).toBe(false);
    expect(verify(secret, signatureHeaders(secret, 'msg_1', now - 3600, '{"a":1}'), '{"a":1}')).toBe(false);
    expect(verify(secret, { ...headers, 'webhook-signature': `v1,bogus ${headers['webhook-signature']}` }, '{"a":1}')).toBe(true);
  });
});

describe('non-public addresses', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    'not-an-address',
  ])('%s is refused', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('%s is public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describe('delivery-time guard', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  const port = () => new URL(receiver.url).port;

  it('refuses a loopback literal without connecting', async () => {
    const result = await sendWebhook({ url: new URL(`${receiver.url}/x`), headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: false });
    expect(result).toMatchObject({ statusCode: null, blocked: true });
    expect(result.error).toMatch(/private, loopback or link-local/);
    expect(receiver.received).toEqual([]);
  });

  it('refuses a name that resolves to loopback, checking the address it would connect to', async () => {
    const result = await sendWebhook({ url: new URL(`http://localhost:${port()}/x`), headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: false });
    expect(result).toMatchObject({ statusCode: null, blocked: true });
    expect(result.error).toMatch(/localhost resolves to/);
    expect(receiver.received).toEqual([]);
  });

  it('connects when private targets are allowed', async () => {
    const result = await sendWebhook({ url: new URL(`http://localhost:${port()}/x`), headers: { 'webhook-id': 'm' }, body: '{"ok":true}', timeoutMs: 2000, allowPrivate: true });
    expect(result).toMatchObject({ statusCode: 200, blocked: false, responseExcerpt: 'ok' });
    expect(receiver.received).toHaveLength(1);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('30')).toBe(30_000);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString(), Date.now())).toBeGreaterThan(55_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
