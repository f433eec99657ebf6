// A small Stripe-compatible HTTP API for tests (the Stripe provider points at it through
// payments.stripeApiBase): PaymentIntents (create with confirm, retrieve, capture, cancel) and
// refunds, idempotency keys honoured as Stripe does (same key → the stored answer), and a switch
// that processes a request but drops its answer (the connection is cut), to prove a retried call
// after a lost answer moves money once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

interface Intent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  status: string;
  capture_method: string;
  client_secret: string;
  metadata: Record<string, string>;
  next_action: unknown;
  last_payment_error: unknown;
  latest_charge: null;
  payment_method: string;
}

export interface FakeStripe {
  url: string;
  intents: Map<string, Intent>;
  /** Money actually moved: one entry per capture or refund processed (replays excluded). */
  moves: Array<{ kind: 'capture' | 'refund'; intent: string; amount: number }>;
  /** Drop the answers of the next `count` requests whose path contains `fragment`. */
  dropAnswers(fragment: string, count: number): void;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_fake_${randomBytes(8).toString('hex')}`;

export async function startFakeStripe(): Promise<FakeStripe> {
  const intents = new Map<string, Intent>();
  const answers = new Map<string, { status: number; body: unknown }>();
  const moves: FakeStripe['moves'] = [];
  const drops: Array<{ fragment: string; count: number }> = [];

  function handle(method: string, path: string, form: URLSearchParams): { status: number; body: unknown } {
    const error = (status: number, type: string, code: string, message: string, extra: Record<string, unknown> = {}) => ({
      status,
      body: { error: { type, code, message, ...extra } },
    });
    if (method === 'POST' && path === '/v1/payment_intents') {
      const metadata: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      const pm = form.get('payment_method') ?? '';
      const amount = Number(form.get('amount'));
      const manual = form.get('capture_method') === 'manual';
      const intent: Intent = {
        id: id('pi'),
        object: 'payment_intent',
        amount,
        amount_capturable: 0,
        amount_received: 0,
        currency: form.get('currency') ?? 'usd',
        status: 'requires_confirmation',
        capture_method: manual ? 'manual' : 'automatic',
        client_secret: `${id('pi')}_secret_x`,
        metadata,
        next_action: null,
        last_payment_error: null,
        latest_charge: null,
        payment_method: pm,
      };
      intents.set(intent.id, intent);
      if (pm === 'pm_card_chargeDeclined')
        return error(402, 'card_error', 'card_declined', 'Your card was declined.', {
          decline_code: 'generic_decline',
          payment_intent: { ...intent, status: 'requires_payment_method' },
        });
      if (pm === 'pm_card_threeDSecureRequired') {
        intent.status = 'requires_action';
        intent.next_action = { type: 'redirect_to_url', redirect_to_url: { url: `https://hooks.stripe.test/3d_secure/${intent.id}`, return_url: form.get('return_url') } };
      } else if (pm === 'pm_card_sdkAction') {
        intent.status = 'requires_action';
        intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: {} };
      } else if (manual) {
        intent.status = 'requires_capture';
        intent.amount_capturable = amount;
      } else {
        intent.status = 'succeeded';
        intent.amount_received = amount;
      }
      return { status: 200, body: intent };
    }
    const match = /^\/v1\/payment_intents\/([^/]+)(?:\/(capture|cancel))?$/.exec(path);
    if (match) {
      const intent = intents.get(match[1]!);
      if (!intent) return error(404, 'invalid_request_error', 'resource_missing', `No such payment_intent: '${match[1]}'`);
      if (method === 'GET' && !match[2]) return { status: 200, body: intent };
      if (match[2] === 'capture') {
        if (intent.status !== 'requires_capture')
          return error(400, 'invalid_request_error', 'payment_intent_unexpected_state', `This PaymentIntent could not be captured because it has a status of ${intent.status}.`);
        const amount = Number(form.get('amount_to_capture') ?? intent.amount_capturable);
        if (amount > intent.amount_capturable) return error(400, 'invalid_request_error', 'amount_too_large', 'Amount to capture is too large.');
        intent.amount_received += amount;
        intent.amount_capturable -= amount;
        moves.push({ kind: 'capture', intent: intent.id, amount });
        if (form.get('final_capture') !== 'false' || intent.amount_capturable === 0) {
          intent.status = 'succeeded';
          intent.amount_capturable = 0;
        }
        return { status: 200, body: intent };
      }
      if (match[2] === 'cancel') {
        if (intent.status === 'succeeded')
          return error(400, 'invalid_request_error', 'payment_intent_unexpected_state', 'You cannot cancel this PaymentIntent because it has a status of succeeded.');
        intent.status = 'canceled';
        intent.amount_capturable = 0;
        return { status: 200, body: intent };
      }
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(form.get('payment_intent') ?? '');
      if (!intent) return error(404, 'invalid_request_error', 'resource_missing', 'No such payment_intent');
      const amount = Number(form.get('amount'));
      moves.push({ kind: 'refund', intent: intent.id, amount });
      return { status: 200, body: { id: id('re'), object: 'refund', amount, status: 'succeeded', payment_intent: intent.id } };
    }
    return error(404, 'invalid_request_error', 'unknown_route', `Unrecognized request URL (${method}: ${path})`);
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const key = req.headers['idempotency-key'];
      const scoped = typeof key === 'string' ? `${req.method} ${url.pathname} ${key}` : null;
      let answer = scoped ? answers.get(scoped) : undefined;
      if (!answer) {
        answer = handle(req.method ?? 'GET', url.pathname, new URLSearchParams(raw));
        if (scoped) answers.set(scoped, answer);
      }
      const drop = drops.find((d) => d.count > 0 && url.pathname.includes(d.fragment));
      if (drop) {
        drop.count -= 1;
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    moves,
    dropAnswers(fragment, count) {
      drops.push({ fragment, count });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
