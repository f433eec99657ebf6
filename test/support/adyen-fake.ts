// A local stand-in for Adyen's Checkout API (v71) on node:http, for the Adyen provider's tests:
// the same paths, headers and answer shapes as checkout-test.adyen.com, with in-memory payments.
//   POST /v71/payments                          authorise (test cards below)
//   POST /v71/payments/details                  finish a redirect / 3DS2 step
//   POST /v71/payments/{psp}/captures|cancels|refunds   modifications (answer `received`)
// Every call needs X-API-Key and the configured merchantAccount. An Idempotency-Key replays the
// first answer without applying the operation again, as Adyen does. Outcomes of modifications
// arrive later as notifications: the fake queues what Adyen would send (`outbox`) and `deliver`
// signs them with the HMAC key and posts them to our webhook route.
//
// Test cards (paymentMethod.encryptedCardNumber `test_<number>`, Adyen's unencrypted test form,
// or `number`):
//   4111111111111111, 5555555555554444   Authorised
//   4000000000000002                     Refused ("Refused", code 2)
//   4917610000000000                     3-D Secure: RedirectShopper (or IdentifyShopper with
//                                        authenticationData.threeDSRequestData.nativeThreeDS)
// Switches: dropNextAnswer() applies the next matching operation and then destroys the connection
// (a lost answer); failNextRefund('notification' | 'error') makes the next refund fail by a
// REFUND_FAILED notification or by a 422 answer.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp, TestResponse } from './app.js';
import { signNotificationItem } from '../../src/modules/payments/providers/adyen/hmac.js';
import type { AdyenAction, AdyenAmount, AdyenNotificationItem } from '../../src/modules/payments/providers/adyen/types.js';

export const ADYEN_TEST_CARDS = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  refused: '4000000000000002',
  threeDS: '4917610000000000',
} as const;

/** The Drop-in's `paymentMethod` object for a test card (Adyen accepts `test_` values on its test endpoint). */
export function adyenCard(number: string): Record<string, string> {
  return { type: 'scheme', encryptedCardNumber: `test_${number}`, encryptedExpiryMonth: 'test_03', encryptedExpiryYear: 'test_2030', encryptedSecurityCode: 'test_737' };
}

export interface FakeAdyenPayment {
  pspReference: string;
  merchantReference: string;
  amount: AdyenAmount;
  status: 'pending_action' | 'authorised' | 'refused' | 'cancelled';
  manualCapture: boolean;
  captureDelayHours: number | null;
  captured: number;
  refunded: number;
  /** Capture / refund / cancel requests applied (a replayed idempotent request is not counted). */
  modifications: Array<{ kind: 'capture' | 'cancel' | 'refund'; pspReference: string; amount: number; reference: string }>;
  returnUrl: string;
  /** The redirectResult a completed 3-D Secure step hands back, once the shopper has completed it. */
  redirectResult: string | null;
  /** How the pending 3DS step ends: authorised or refused by the issuer. */
  threeDSOutcome: 'authorised' | 'refused';
}

export interface FakeAdyenRequest {
  path: string;
  idempotencyKey: string | null;
  replayed: boolean;
  body: any;
}

export interface AdyenFake {
  /** The API base to configure (payments.adyen.apiBase), e.g. http://127.0.0.1:41234/v71. */
  url: string;
  apiKey: string;
  merchantAccount: string;
  hmacKey: string;
  payments: Map<string, FakeAdyenPayment>;
  requests: FakeAdyenRequest[];
  /** Notifications Adyen would send, not yet delivered. */
  outbox: AdyenNotificationItem[];
  paymentByReference(reference: string): FakeAdyenPayment | undefined;
  /** The next `times` matching requests apply, then lose their answer (the client retries up to twice itself). */
  dropNextAnswer(pathPattern?: RegExp, times?: number): void;
  failNextRefund(how: 'notification' | 'error'): void;
  /** The shopper completes (or fails) 3-D Secure on the redirect page: the redirectResult our return URL receives. */
  completeRedirect(actionUrl: string, outcome?: 'authorised' | 'refused'): Promise<string>;
  /** The shopper completes native 3DS2 in Adyen's SDK: the threeDSResult the storefront posts back. */
  completeThreeDS2(action: { authorisationToken?: string }, outcome?: 'authorised' | 'refused'): string;
  /** Takes the queued notifications matching `filter` out of the outbox. */
  take(filter?: (item: AdyenNotificationItem) => boolean): AdyenNotificationItem[];
  /** Signs items (each with the HMAC key unless `hmacKey` overrides) and posts one delivery. */
  deliver(t: TestApp, items: AdyenNotificationItem[], options?: { path?: string; hmacKey?: string; sign?: boolean }): Promise<TestResponse>;
  close(): Promise<void>;
}

const AUTHORISED = new Set<string>([ADYEN_TEST_CARDS.visa, ADYEN_TEST_CARDS.mastercard]);

function psp(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(randomBytes(16), (b) => alphabet[b % alphabet.length]).join('');
}

function cardNumber(method: any): string | null {
  if (!method || typeof method !== 'object') return null;
  const raw = typeof method.encryptedCardNumber === 'string' ? method.encryptedCardNumber : typeof method.number === 'string' ? method.number : null;
  return raw ? raw.replace(/^test_/, '').replace(/\s+/g, '') : null;
}

export async function startAdyenFake(options: { multiplePartialCaptures?: boolean } = {}): Promise<AdyenFake> {
  const apiKey = `AQE_test_${randomBytes(8).toString('hex')}`;
  const merchantAccount = 'CommerceTestECOM';
  const hmacKey = randomBytes(32).toString('hex').toUpperCase();
  const payments = new Map<string, FakeAdyenPayment>();
  const requests: FakeAdyenRequest[] = [];
  const outbox: AdyenNotificationItem[] = [];
  const answers = new Map<string, { path: string; status: number; body: unknown }>();
  const redirects = new Map<string, string>(); // MD → payment psp
  let drop: { pattern: RegExp; times: number } | null = null;
  let refundFailure: 'notification' | 'error' | null = null;
  let base = '';

  const notify = (item: Omit<AdyenNotificationItem, 'merchantAccountCode' | 'eventDate'>) =>
    outbox.push({ merchantAccountCode: merchantAccount, eventDate: new Date().toISOString(), ...item });
  const error = (status: number, errorCode: string, message: string, errorType = 'validation') => ({ status, body: { status, errorCode, message, errorType } });

  function authorisedNotification(p: FakeAdyenPayment, success: boolean, reason?: string) {
    notify({
      eventCode: 'AUTHORISATION',
      success: String(success),
      pspReference: p.pspReference,
      merchantReference: p.merchantReference,
      amount: p.amount,
      paymentMethod: 'visa',
      ...(reason ? { reason } : {}),
      ...(success ? { operations: ['CANCEL', 'CAPTURE', 'REFUND'] } : {}),
    });
  }

  function authorise(p: FakeAdyenPayment) {
    p.status = 'authorised';
    // Automatic capture without a delay (captureDelayHours 0, or unset on a default account).
    if (!p.manualCapture && !p.captureDelayHours) p.captured = p.amount.value;
    authorisedNotification(p, true);
    return { resultCode: 'Authorised', pspReference: p.pspReference, merchantReference: p.merchantReference, amount: p.amount, additionalData: { authCode: '012345' } };
  }

  function createPayment(body: any): { status: number; body: unknown } {
    const amount = body.amount;
    if (!amount || !Number.isSafeInteger(amount.value) || amount.value < 0 || typeof amount.currency !== 'string')
      return error(422, '100', "Required field 'amount' is not provided.");
    if (typeof body.reference !== 'string' || !body.reference) return error(422, '130', "Required field 'reference' is not provided.");
    if (typeof body.returnUrl !== 'string' || !body.returnUrl) return error(422, '14_006', "Required field 'returnUrl' is not provided.");
    const number = cardNumber(body.paymentMethod);
    if (!number) return error(422, '14_012', "Required field 'paymentMethod' is not provided or invalid.");
    const p: FakeAdyenPayment = {
      pspReference: psp(),
      merchantReference: body.reference,
      amount: { value: amount.value, currency: amount.currency },
      status: 'pending_action',
      manualCapture: body.additionalData?.manualCapture === 'true',
      captureDelayHours: typeof body.captureDelayHours === 'number' ? body.captureDelayHours : null,
      captured: 0,
      refunded: 0,
      modifications: [],
      returnUrl: body.returnUrl,
      redirectResult: null,
      threeDSOutcome: 'authorised',
    };
    payments.set(p.pspReference, p);
    if (AUTHORISED.has(number)) return { status: 200, body: authorise(p) };
    if (number === ADYEN_TEST_CARDS.threeDS) {
      const md = randomBytes(12).toString('base64url');
      redirects.set(md, p.pspReference);
      const paymentData = Buffer.from(`pd:${p.pspReference}`).toString('base64');
      const native = body.authenticationData?.threeDSRequestData?.nativeThreeDS === 'preferred';
      const action: AdyenAction = native
        ? {
            type: 'threeDS2',
            subtype: 'fingerprint',
            paymentMethodType: 'scheme',
            token: Buffer.from(JSON.stringify({ threeDSMethodNotificationURL: `${base}/threeDS/notify`, threeDSServerTransID: md })).toString('base64'),
            authorisationToken: md,
            paymentData,
          }
        : { type: 'redirect', paymentMethodType: 'scheme', method: 'GET', url: `${base}/threeDS/redirect?MD=${md}` };
      // v71 names the payment's pspReference on action answers too (older versions did not).
      return { status: 200, body: { resultCode: native ? 'IdentifyShopper' : 'RedirectShopper', action, pspReference: p.pspReference, merchantReference: p.merchantReference } };
    }
    p.status = 'refused';
    authorisedNotification(p, false, 'Refused');
    return {
      status: 200,
      body: { resultCode: 'Refused', pspReference: p.pspReference, merchantReference: p.merchantReference, refusalReason: 'Refused', refusalReasonCode: '2', amount: p.amount },
    };
  }

  function paymentDetails(body: any): { status: number; body: unknown } {
    const result = body.details?.redirectResult ?? body.details?.threeDSResult;
    if (typeof result !== 'string') return error(422, '14_0', "Required field 'details' is not provided.");
    const p = [...payments.values()].find((x) => x.redirectResult === result);
    if (!p) return error(422, '14_018', 'Invalid payload provided');
    if (p.status === 'authorised')
      return { status: 200, body: { resultCode: 'Authorised', pspReference: p.pspReference, merchantReference: p.merchantReference, amount: p.amount } };
    if (p.status !== 'pending_action')
      return {
        status: 200,
        body: { resultCode: 'Refused', pspReference: p.pspReference, merchantReference: p.merchantReference, refusalReason: '3D Not Authenticated', refusalReasonCode: '11' },
      };
    if (p.threeDSOutcome === 'authorised') return { status: 200, body: authorise(p) };
    p.status = 'refused';
    authorisedNotification(p, false, '3D Not Authenticated');
    return {
      status: 200,
      body: {
        resultCode: 'Refused',
        pspReference: p.pspReference,
        merchantReference: p.merchantReference,
        refusalReason: '3D Not Authenticated',
        refusalReasonCode: '11',
        amount: p.amount,
      },
    };
  }

  function modify(kind: 'captures' | 'cancels' | 'refunds', paymentPsp: string, body: any): { status: number; body: unknown } {
    const p = payments.get(paymentPsp);
    if (!p) return error(422, '167', 'Original pspReference required for this operation');
    if (typeof body.reference !== 'string') body.reference = undefined;
    const modification = psp();
    const received = (amount?: AdyenAmount) => ({
      status: 201,
      body: {
        merchantAccount,
        paymentPspReference: p.pspReference,
        pspReference: modification,
        ...(body.reference ? { reference: body.reference } : {}),
        status: 'received',
        ...(amount ? { amount } : {}),
      },
    });
    const event = (eventCode: string, success: boolean, amount: AdyenAmount, reason?: string) =>
      notify({
        eventCode,
        success: String(success),
        pspReference: modification,
        originalReference: p.pspReference,
        merchantReference: body.reference ?? p.merchantReference,
        amount,
        ...(reason ? { reason } : {}),
      });

    if (kind === 'cancels') {
      p.modifications.push({ kind: 'cancel', pspReference: modification, amount: 0, reference: body.reference ?? '' });
      const ok = p.status === 'authorised' && p.captured === 0;
      if (ok) p.status = 'cancelled';
      event('CANCELLATION', ok, { value: p.amount.value, currency: p.amount.currency }, ok ? undefined : 'Transaction already captured or not authorised');
      return received();
    }
    const amount = body.amount;
    if (!amount || !Number.isSafeInteger(amount.value) || amount.value <= 0) return error(422, '137', 'Invalid amount specified');
    if (amount.currency !== p.amount.currency) return error(422, '138', 'Invalid currency specified');
    if (kind === 'captures') {
      if (p.status !== 'authorised') return error(422, '167', 'Original pspReference required for this operation');
      const remaining = p.amount.value - p.captured;
      if (amount.value > remaining) return error(422, '137', 'Invalid amount specified');
      p.captured += amount.value;
      // Without multiple partial captures Adyen cancels what a partial capture left over.
      if (!(options.multiplePartialCaptures ?? true)) p.amount = { ...p.amount, value: p.captured };
      p.modifications.push({ kind: 'capture', pspReference: modification, amount: amount.value, reference: body.reference ?? '' });
      event('CAPTURE', true, amount);
      return received(amount);
    }
    // refunds
    if (refundFailure === 'error') {
      refundFailure = null;
      return error(422, '901', 'Refund rejected by the acquirer', 'validation');
    }
    if (amount.value > p.captured - p.refunded) return error(422, '137', 'Invalid amount specified');
    p.modifications.push({ kind: 'refund', pspReference: modification, amount: amount.value, reference: body.reference ?? '' });
    if (refundFailure === 'notification') {
      refundFailure = null;
      // Adyen first acknowledges the refund (REFUND success) and reports the failure later.
      event('REFUND_FAILED', true, amount, 'Refund failed at the issuer');
    } else {
      p.refunded += amount.value;
      event('REFUND', true, amount);
    }
    return received(amount);
  }

  function route(path: string, body: any): { status: number; body: unknown } {
    if (path === '/v71/payments') return createPayment(body);
    if (path === '/v71/payments/details') return paymentDetails(body);
    const m = /^\/v71\/payments\/([^/]+)\/(captures|cancels|refunds)$/.exec(path);
    if (m) return modify(m[2] as 'captures' | 'cancels' | 'refunds', decodeURIComponent(m[1]!), body);
    return { status: 404, body: { status: 404, errorCode: '000', message: 'Not found', errorType: 'validation' } };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      // The 3-D Secure page: the shopper's browser lands here and comes back to returnUrl.
      if (req.method === 'GET' && url.pathname === '/threeDS/redirect') {
        const p = payments.get(redirects.get(url.searchParams.get('MD') ?? '') ?? '');
        if (!p) return void res.writeHead(404).end();
        p.redirectResult ??= randomBytes(24).toString('base64url');
        const back = new URL(p.returnUrl);
        back.searchParams.set('redirectResult', p.redirectResult);
        return void res.writeHead(302, { location: back.toString() }).end();
      }
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST') return send(405, { status: 405, errorCode: '000', message: 'Method not allowed', errorType: 'validation' });
      if (req.headers['x-api-key'] !== apiKey) return send(401, { status: 401, errorCode: '000', message: 'HTTP Status Response - Unauthorized', errorType: 'security' });
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        return send(400, { status: 400, errorCode: '702', message: 'Malformed JSON', errorType: 'validation' });
      }
      if (url.pathname !== '/v71/payments/details' && body.merchantAccount !== merchantAccount)
        return send(403, { status: 403, errorCode: '901', message: 'Invalid Merchant Account', errorType: 'security' });
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
      const known = key ? answers.get(key) : undefined;
      requests.push({ path: url.pathname, idempotencyKey: key, replayed: Boolean(known), body });
      let answer: { status: number; body: unknown };
      if (known) {
        answer = known.path === url.pathname ? known : error(422, '704', 'request already processed or in progress');
      } else {
        answer = route(url.pathname, body);
        // Adyen keeps the answer of a request that reached it, errors included.
        if (key) answers.set(key, { path: url.pathname, ...answer });
      }
      if (drop?.pattern.test(url.pathname)) {
        if (--drop.times <= 0) drop = null;
        // The operation applied; the answer is lost on the way back.
        return void res.socket?.destroy();
      }
      send(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${base}/v71`,
    apiKey,
    merchantAccount,
    hmacKey,
    payments,
    requests,
    outbox,
    paymentByReference: (reference) => [...payments.values()].find((p) => p.merchantReference === reference),
    dropNextAnswer(pattern = /./, times = 1) {
      drop = { pattern, times };
    },
    failNextRefund(how) {
      refundFailure = how;
    },
    async completeRedirect(actionUrl, outcome = 'authorised') {
      const md = new URL(actionUrl).searchParams.get('MD') ?? '';
      const p = payments.get(redirects.get(md) ?? '');
      if (p) p.threeDSOutcome = outcome;
      const res = await fetch(actionUrl, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`the fake's 3DS page answered ${res.status}`);
      return new URL(location).searchParams.get('redirectResult')!;
    },
    completeThreeDS2(action, outcome = 'authorised') {
      const p = payments.get(redirects.get(action.authorisationToken ?? '') ?? '');
      if (!p) throw new Error('no pending 3DS2 action with that authorisationToken');
      p.threeDSOutcome = outcome;
      p.redirectResult ??= randomBytes(24).toString('base64url');
      return p.redirectResult;
    },
    take(filter = () => true) {
      const taken = outbox.filter(filter);
      for (const item of taken) outbox.splice(outbox.indexOf(item), 1);
      return taken;
    },
    deliver(t, items, opts = {}) {
      const key = opts.hmacKey ?? hmacKey;
      const signed = items.map((item) => {
        const { hmacSignature: _drop, ...rest } = item.additionalData ?? {};
        const copy: AdyenNotificationItem = { ...item, additionalData: rest };
        if (opts.sign !== false) copy.additionalData = { ...rest, hmacSignature: signNotificationItem(copy, key) };
        return { NotificationRequestItem: copy };
      });
      const body = JSON.stringify({ live: 'false', notificationItems: signed });
      return t.request(opts.path ?? '/api/payments/webhook/adyen', { method: 'POST', rawBody: body, headers: { 'content-type': 'application/json' } });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
