// The Adyen provider against the local fake of Adyen's Checkout API, without the app: request
// shapes, idempotency across a lost answer, answer and notification mapping, HMAC verification,
// and the configuration that enables it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv, resolveConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';
import { paymentProviderFactory } from '../../src/modules/payments/provider.js';
import '../../src/modules/payments/providers/adyen/index.js';
import { AdyenClient, AdyenUnavailable } from '../../src/modules/payments/providers/adyen/client.js';
import { notificationSigningString, signNotificationItem, verifyNotificationItem } from '../../src/modules/payments/providers/adyen/hmac.js';
import { eventOf, nextActionOf } from '../../src/modules/payments/providers/adyen/mapping.js';
import { AdyenProvider } from '../../src/modules/payments/providers/adyen/provider.js';
import type { AdyenNotificationItem } from '../../src/modules/payments/providers/adyen/types.js';
import { ADYEN_TEST_CARDS, adyenCard, startAdyenFake, type AdyenFake } from '../support/adyen-fake.js';
import { randomUUID } from 'node:crypto';

let fake: AdyenFake;
let adyen: AdyenProvider;

beforeAll(async () => {
  fake = await startAdyenFake();
  adyen = new AdyenProvider({ apiKey: fake.apiKey, merchantAccount: fake.merchantAccount, hmacKey: fake.hmacKey, apiBase: fake.url, timeoutMs: 5000 });
});
afterAll(() => fake?.close());

function authorizeInput(card: string, capture: boolean, amount = 4200) {
  const paymentId = randomUUID();
  return {
    paymentId,
    orderId: randomUUID(),
    organizationId: randomUUID(),
    amount,
    currency: 'eur',
    method: { id: 'scheme', details: adyenCard(card) },
    idempotencyKey: `${paymentId}:authorize:1`,
    capture,
    returnUrl: 'https://shop.example/checkout/return',
  };
}

describe('Adyen notification HMAC', () => {
  // Adyen's own library test vector (adyen-php-api-library HmacSignatureTest).
  const item = {
    pspReference: '7914073381342284',
    merchantAccountCode: 'TestMerchant',
    merchantReference: 'TestPayment-1407325143704',
    amount: { value: 1130, currency: 'EUR' },
    eventCode: 'AUTHORISATION',
    success: 'true',
  } as AdyenNotificationItem;
  const key = 'DFB1EB5485895CFA84146406857104ABB4CBCABDC8AAF103A624C8F6A3EAAB00';

  it("matches Adyen's reference signature and signing string", () => {
    expect(notificationSigningString(item)).toBe('7914073381342284::TestMerchant:TestPayment-1407325143704:1130:EUR:AUTHORISATION:true');
    expect(signNotificationItem(item, key)).toBe('Ny9gS2veKo5E4w8/OL6xz1/wvT/hYkAXy1xNc/QvO4I=');
  });

  it('refuses a missing, wrong-key, changed or truncated signature', () => {
    const signed = { ...item, additionalData: { hmacSignature: signNotificationItem(item, key) } };
    expect(verifyNotificationItem(signed, key)).toBe(true);
    expect(verifyNotificationItem(item, key)).toBe(false);
    expect(verifyNotificationItem(signed, '00'.repeat(32))).toBe(false);
    expect(verifyNotificationItem({ ...signed, amount: { value: 1, currency: 'EUR' } }, key)).toBe(false);
    expect(verifyNotificationItem({ ...signed, success: 'false' }, key)).toBe(false);
    expect(verifyNotificationItem({ ...item, additionalData: { hmacSignature: 'Ny9g' } }, key)).toBe(false);
  });
});

describe('Adyen provider against the fake Checkout API', () => {
  it('authorises and captures at once (automatic capture), with the merchant account, reference, key and API key', async () => {
    const input = authorizeInput(ADYEN_TEST_CARDS.visa, true);
    const result = await adyen.authorize(input);
    expect(result).toMatchObject({ status: 'captured', capturedAmount: 4200 });
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({ path: '/v71/payments', idempotencyKey: input.idempotencyKey, replayed: false });
    expect(sent.body).toMatchObject({
      merchantAccount: fake.merchantAccount,
      reference: input.paymentId,
      amount: { value: 4200, currency: 'EUR' },
      returnUrl: input.returnUrl,
      metadata: { paymentId: input.paymentId },
    });
    expect(sent.body.additionalData).toBeUndefined();
    expect(sent.body.captureDelayHours).toBe(0);
    expect(fake.payments.get(result.providerReference!)).toMatchObject({ status: 'authorised', captured: 4200 });
  });

  it('authorises only with manual capture, then captures in two partials and refuses a third beyond the authorisation', async () => {
    const input = authorizeInput(ADYEN_TEST_CARDS.mastercard, false, 1000);
    const auth = await adyen.authorize(input);
    expect(auth.status).toBe('authorized');
    expect(fake.requests.at(-1)!.body).toMatchObject({ additionalData: { manualCapture: 'true' }, reference: `${input.paymentId}:manual` });
    const psp = auth.providerReference!;
    const first = await adyen.capture({
      paymentId: input.paymentId,
      providerReference: psp,
      amount: 600,
      currency: 'EUR',
      idempotencyKey: `${input.paymentId}:capture:1`,
      final: false,
    });
    const second = await adyen.capture({
      paymentId: input.paymentId,
      providerReference: psp,
      amount: 400,
      currency: 'EUR',
      idempotencyKey: `${input.paymentId}:capture:2`,
      final: true,
    });
    expect(first).toEqual({ ok: true, providerReference: psp, status: 'pending' });
    expect(second).toMatchObject({ ok: true, status: 'pending' });
    const third = await adyen.capture({
      paymentId: input.paymentId,
      providerReference: psp,
      amount: 1,
      currency: 'EUR',
      idempotencyKey: `${input.paymentId}:capture:3`,
      final: true,
    });
    expect(third).toMatchObject({ ok: false, code: '137', retryable: false });
    expect(fake.payments.get(psp)!.captured).toBe(1000);
    const captures = fake.take((n) => n.originalReference === psp && n.eventCode === 'CAPTURE');
    expect(captures.map((n) => [n.amount.value, n.merchantReference])).toEqual([
      [600, `${input.paymentId}:capture:1`],
      [400, `${input.paymentId}:capture:2`],
    ]);
  });

  it('maps a refusal to a failed authorization with a shopper message', async () => {
    const result = await adyen.authorize(authorizeInput(ADYEN_TEST_CARDS.refused, true));
    expect(result).toMatchObject({ status: 'failed', failure: { code: 'Refused', message: 'Your card was declined.', declineCode: '2:Refused' } });
  });

  it('refuses a method without Adyen payment method details before calling Adyen', async () => {
    const before = fake.requests.length;
    const result = await adyen.authorize({ ...authorizeInput(ADYEN_TEST_CARDS.visa, true), method: { id: 'pm_card_visa' } });
    expect(result).toMatchObject({ status: 'failed', providerReference: null, failure: { code: 'invalid_payment_method' } });
    expect(fake.requests.length).toBe(before);
  });

  it('3-D Secure: a redirect action, then /payments/details with the redirectResult completes it', async () => {
    const input = authorizeInput(ADYEN_TEST_CARDS.threeDS, false);
    const auth = await adyen.authorize(input);
    expect(auth.status).toBe('requires_action');
    expect(auth.nextAction).toMatchObject({ type: 'redirect', url: expect.stringContaining('/threeDS/redirect?MD=') });
    const redirectResult = await fake.completeRedirect((auth.nextAction as { url: string }).url);
    const confirmed = await adyen.confirm({
      paymentId: input.paymentId,
      providerReference: auth.providerReference ?? '',
      params: { redirectResult, orderId: 'ignored' },
      idempotencyKey: `${input.paymentId}:confirm:1`,
    });
    expect(confirmed).toMatchObject({ status: 'authorized', providerReference: expect.stringMatching(/^[A-Z0-9]{16}$/) });
    expect(fake.requests.at(-1)!.body).toEqual({ details: { redirectResult } });
    // Automatic capture: the same answer means Adyen captured it.
    const auto = authorizeInput(ADYEN_TEST_CARDS.threeDS, true);
    const autoAuth = await adyen.authorize(auto);
    const autoResult = await fake.completeRedirect((autoAuth.nextAction as { url: string }).url);
    expect(
      await adyen.confirm({ paymentId: auto.paymentId, providerReference: '', params: { redirectResult: autoResult }, idempotencyKey: `${auto.paymentId}:confirm:1` }),
    ).toMatchObject({ status: 'captured', capturedAmount: 4200 });
  });

  it("3-D Secure failed at the issuer, and details that are not Adyen's, end failed", async () => {
    const input = authorizeInput(ADYEN_TEST_CARDS.threeDS, true);
    const auth = await adyen.authorize(input);
    const redirectResult = await fake.completeRedirect((auth.nextAction as { url: string }).url, 'refused');
    const refused = await adyen.confirm({ paymentId: input.paymentId, providerReference: '', params: { redirectResult }, idempotencyKey: `${input.paymentId}:confirm:1` });
    expect(refused).toMatchObject({ status: 'failed', failure: { code: 'Refused', message: 'The card issuer could not authenticate the payment.' } });
    expect(
      await adyen.confirm({ paymentId: input.paymentId, providerReference: '', params: { redirectResult: 'forged' }, idempotencyKey: `${input.paymentId}:confirm:2` }),
    ).toMatchObject({ status: 'failed', failure: { code: '14_018' } });
    expect(await adyen.confirm({ paymentId: input.paymentId, providerReference: '', params: { foo: 'bar' }, idempotencyKey: `${input.paymentId}:confirm:3` })).toMatchObject({
      status: 'failed',
      failure: { code: 'missing_details' },
    });
  });

  it('maps native 3DS2 and POST redirects to an SDK action carrying the whole action object', () => {
    expect(nextActionOf({ type: 'threeDS2', subtype: 'fingerprint', token: 'tok', authorisationToken: 'auth', paymentData: 'pd', paymentMethodType: 'scheme' })).toEqual({
      type: 'sdk',
      clientSecret: 'pd',
      data: { type: 'threeDS2', subtype: 'fingerprint', token: 'tok', authorisationToken: 'auth', paymentData: 'pd', paymentMethodType: 'scheme' },
    });
    expect(nextActionOf({ type: 'redirect', method: 'POST', url: 'https://acs.example/', data: { PaReq: 'x' } })).toMatchObject({
      type: 'sdk',
      data: { method: 'POST', data: { PaReq: 'x' } },
    });
    expect(nextActionOf({ type: 'redirect', url: 'https://acs.example/r' })).toEqual({ type: 'redirect', url: 'https://acs.example/r' });
  });

  it('a capture whose answer is lost is retried with the same key and moves money once', async () => {
    const input = authorizeInput(ADYEN_TEST_CARDS.visa, false, 900);
    const { providerReference } = await adyen.authorize(input);
    fake.dropNextAnswer(/captures$/);
    const result = await adyen.capture({
      paymentId: input.paymentId,
      providerReference: providerReference!,
      amount: 900,
      currency: 'EUR',
      idempotencyKey: `${input.paymentId}:capture:1`,
      final: true,
    });
    expect(result).toMatchObject({ ok: true, status: 'pending' });
    const calls = fake.requests.filter((r) => r.path.endsWith(`${providerReference}/captures`));
    expect(calls.map((c) => c.replayed)).toEqual([false, true]);
    expect(fake.payments.get(providerReference!)!.modifications.filter((m) => m.kind === 'capture')).toHaveLength(1);
    // And a caller retrying later with the same key (our record's key) gets the same answer, no second capture.
    expect(
      await adyen.capture({
        paymentId: input.paymentId,
        providerReference: providerReference!,
        amount: 900,
        currency: 'EUR',
        idempotencyKey: `${input.paymentId}:capture:1`,
        final: true,
      }),
    ).toMatchObject({ ok: true });
    expect(fake.payments.get(providerReference!)!.captured).toBe(900);
  });

  it('void and refund answer pending; a refused refund is an answer, not a throw', async () => {
    const manual = authorizeInput(ADYEN_TEST_CARDS.visa, false);
    const held = await adyen.authorize(manual);
    expect(
      await adyen.void({ paymentId: manual.paymentId, providerReference: held.providerReference!, amount: 4200, currency: 'EUR', idempotencyKey: `${manual.paymentId}:void:1` }),
    ).toEqual({ ok: true, providerReference: held.providerReference, status: 'pending' });
    expect(fake.payments.get(held.providerReference!)!.status).toBe('cancelled');

    const paid = authorizeInput(ADYEN_TEST_CARDS.visa, true);
    const charge = await adyen.authorize(paid);
    const refundId = randomUUID();
    const refund = await adyen.refund({
      paymentId: paid.paymentId,
      refundId,
      providerReference: charge.providerReference!,
      amount: 1000,
      currency: 'EUR',
      idempotencyKey: `${paid.paymentId}:refund:${refundId}:1`,
    });
    expect(refund).toMatchObject({ ok: true, status: 'pending' });
    expect(refund.ok && refund.providerReference).not.toBe(charge.providerReference);
    expect(fake.requests.at(-1)!.body).toMatchObject({ reference: `refund:${refundId}`, amount: { value: 1000, currency: 'EUR' } });
    fake.failNextRefund('error');
    expect(
      await adyen.refund({
        paymentId: paid.paymentId,
        refundId,
        providerReference: charge.providerReference!,
        amount: 1000,
        currency: 'EUR',
        idempotencyKey: `${paid.paymentId}:refund:${refundId}:2`,
      }),
    ).toMatchObject({ ok: false, retryable: false });
    expect(fake.payments.get(charge.providerReference!)!.refunded).toBe(1000);
  });

  it('throws AdyenUnavailable (unknown outcome) when Adyen cannot be reached', async () => {
    const client = new AdyenClient({ apiKey: 'k', merchantAccount: 'm', apiBase: 'http://127.0.0.1:9/v71', timeoutMs: 1500, retries: 1 });
    await expect(client.capture('X', { value: 1, currency: 'EUR' }, 'r', 'k1')).rejects.toBeInstanceOf(AdyenUnavailable);
    const down = new AdyenProvider({ apiKey: 'k', merchantAccount: 'm', hmacKey: '00', apiBase: 'http://127.0.0.1:9/v71', timeoutMs: 1500, retries: 0 });
    await expect(down.refund({ paymentId: 'p', refundId: randomUUID(), providerReference: 'X', amount: 1, currency: 'EUR', idempotencyKey: 'k2' })).rejects.toBeInstanceOf(
      AdyenUnavailable,
    );
  });
});

describe('Adyen notifications through handleEvent', () => {
  function delivery(items: AdyenNotificationItem[], key = fake.hmacKey): string {
    return JSON.stringify({
      live: 'false',
      notificationItems: items.map((item) => ({ NotificationRequestItem: { ...item, additionalData: { hmacSignature: signNotificationItem(item, key) } } })),
    });
  }
  const paymentId = randomUUID();
  const refundId = randomUUID();
  const base = { merchantAccountCode: 'CommerceTestECOM', amount: { value: 500, currency: 'EUR' }, success: 'true', eventDate: '2026-11-26T01:00:00+01:00' };

  it('maps a batch of items to events and asks for [accepted]', async () => {
    const handled = await adyen.handleEvent(
      delivery([
        { ...base, eventCode: 'AUTHORISATION', pspReference: 'PAY1', merchantReference: `${paymentId}:manual` },
        { ...base, eventCode: 'AUTHORISATION', pspReference: 'PAY0', merchantReference: paymentId },
        { ...base, eventCode: 'CAPTURE', pspReference: 'CAP1', originalReference: 'PAY1', merchantReference: `${paymentId}:capture:1` },
        { ...base, eventCode: 'REFUND', pspReference: 'REF1', originalReference: 'PAY1', merchantReference: `refund:${refundId}` },
        { ...base, eventCode: 'REFUND_FAILED', pspReference: 'REF1', originalReference: 'PAY1', merchantReference: `refund:${refundId}`, reason: 'issuer' },
        { ...base, eventCode: 'CANCELLATION', pspReference: 'CAN1', originalReference: 'PAY2', merchantReference: `${paymentId}:void:1` },
        { ...base, eventCode: 'AUTHORISATION', success: 'false', pspReference: 'PAY3', merchantReference: paymentId, reason: 'Refused' },
        { ...base, eventCode: 'OFFER_CLOSED', pspReference: 'PAY4', merchantReference: paymentId },
        { ...base, eventCode: 'REPORT_AVAILABLE', pspReference: 'RPT', merchantReference: 'report.csv' },
      ]),
      {},
    );
    expect(handled.acknowledgement).toEqual({ status: 200, contentType: 'text/plain; charset=utf-8', body: '[accepted]' });
    expect(handled.events.map((e) => [e.id, e.type, e.providerReference, e.paymentId ?? null, e.refundId ?? null, e.amount])).toEqual([
      ['PAY1:AUTHORISATION:true', 'payment.authorized', 'PAY1', paymentId, null, 500],
      // Automatic capture: the authorisation is the capture.
      ['PAY0:AUTHORISATION:true', 'payment.captured', 'PAY0', paymentId, null, 500],
      ['CAP1:CAPTURE:true', 'payment.captured', 'PAY1', paymentId, null, 500],
      ['REF1:REFUND:true', 'payment.refunded', 'PAY1', null, refundId, 500],
      ['REF1:REFUND_FAILED:true', 'payment.refund_failed', 'PAY1', null, refundId, 500],
      ['CAN1:CANCELLATION:true', 'payment.voided', 'PAY2', paymentId, null, 500],
      ['PAY3:AUTHORISATION:false', 'payment.failed', 'PAY3', paymentId, null, 500],
      ['PAY4:OFFER_CLOSED:true', 'payment.failed', 'PAY4', paymentId, null, 500],
      ['RPT:REPORT_AVAILABLE:true', 'ignored', 'RPT', null, null, 500],
    ]);
    expect(handled.events[3]!.providerRefundReference).toBe('REF1');
    expect(handled.events[6]!.failure).toEqual({ code: 'AUTHORISATION', message: 'Refused' });
    expect(handled.events[0]!.occurredAt?.toISOString()).toBe('2026-11-26T00:00:00.000Z');
  });

  it('refuses the whole delivery when one item is signed with another key, and a body that is not a notification', async () => {
    const good = { ...base, eventCode: 'AUTHORISATION', pspReference: 'PAY9', merchantReference: paymentId };
    const mixed = JSON.parse(delivery([good])) as { notificationItems: unknown[] };
    mixed.notificationItems.push(JSON.parse(delivery([{ ...good, pspReference: 'PAY10' }], 'AB'.repeat(32))).notificationItems[0]);
    await expect(adyen.handleEvent(JSON.stringify(mixed), {})).rejects.toThrow(/notificationItems\[1\]/);
    await expect(adyen.handleEvent('{"id":"evt_1","type":"payment_intent.succeeded"}', {})).rejects.toThrow(/not an Adyen notification/);
    await expect(adyen.handleEvent('not json', {})).rejects.toThrow(/not JSON/);
  });

  it('ignores a verified item for another merchant account', () => {
    expect(eventOf({ ...base, merchantAccountCode: 'OtherECOM', eventCode: 'AUTHORISATION', pspReference: 'P', merchantReference: paymentId }, 'CommerceTestECOM')).toMatchObject({
      type: 'ignored',
      providerReference: null,
    });
  });
});

describe('Adyen configuration', () => {
  const deps = (input: object) => ({ config: resolveConfig(input), logger: createLogger('silent'), env: {} });

  it('reads ADYEN_* from the environment, defaults to the test endpoint, and is off when unset', () => {
    const config = resolveConfig(
      configFromEnv({ ADYEN_API_KEY: 'AQE_x', ADYEN_MERCHANT_ACCOUNT: 'ShopECOM', ADYEN_HMAC_KEY: 'AB01', ADYEN_API_BASE: 'http://127.0.0.1:9999/v71' }),
    );
    expect(config.payments.adyen).toEqual({ apiKey: 'AQE_x', merchantAccount: 'ShopECOM', hmacKey: 'AB01', apiBase: 'http://127.0.0.1:9999/v71' });
    expect(resolveConfig({}).payments.adyen).toEqual({ apiBase: 'https://checkout-test.adyen.com/v71' });
    const factory = paymentProviderFactory('adyen')!;
    expect(factory(deps({}))).toBeNull();
    expect(factory(deps({ payments: { adyen: { apiKey: 'k', merchantAccount: 'm', hmacKey: 'AB01' } } }))?.name).toBe('adyen');
  });

  it('names what is missing from a partial configuration, and refuses a key that is not hex', () => {
    const factory = paymentProviderFactory('adyen')!;
    expect(() => factory(deps({ payments: { adyen: { apiKey: 'k' } } }))).toThrow(ConfigError);
    expect(() => factory(deps({ payments: { adyen: { apiKey: 'k' } } }))).toThrow(/ADYEN_MERCHANT_ACCOUNT.*ADYEN_HMAC_KEY/);
    expect(() => resolveConfig({ payments: { adyen: { hmacKey: 'not-hex' } } })).toThrow(/hmacKey/);
  });
});
