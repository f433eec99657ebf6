// Chooses and builds the payment adapter once per process (ctx.services.payments).
//   provider auto   → Stripe when a secret key is set, otherwise offline;
//   STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET fill payments.stripeSecretKey / webhookSecret.
// The offline adapter needs a webhook secret too (tests and developers sign events with it):
// payments.webhookSecret when set, otherwise one generated once under DATA_DIR (like the auth
// secret) and logged at boot. Production never falls back to the offline adapter: without a
// provider (or payments.provider = offline chosen on purpose) every charge is refused.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../../config/index.js';
import type { Logger } from '../../logger.js';
import { WebhookSignatureError, type PaymentAdapter } from './adapter.js';
import { OfflinePaymentAdapter } from './offline.js';
import { StripePaymentAdapter } from './stripe.js';

export interface PaymentsService {
  adapter: PaymentAdapter;
  /** The secret the webhook receiver verifies Stripe-Signature against. */
  webhookSecret: string;
  timeoutMs: number;
}

export function createPaymentsService(config: Config, logger: Logger, env: NodeJS.ProcessEnv = process.env): PaymentsService {
  const settings = config.payments;
  const secretKey = settings.stripeSecretKey ?? env.STRIPE_SECRET_KEY;
  const configuredSecret = settings.webhookSecret ?? env.STRIPE_WEBHOOK_SECRET;
  const provider = settings.provider === 'auto' ? (secretKey ? 'stripe' : 'offline') : settings.provider;

  if (provider === 'stripe') {
    if (!secretKey) throw new ConfigError('payments.provider is stripe but no key is set: set STRIPE_SECRET_KEY (or payments.stripeSecretKey)');
    if (!configuredSecret) throw new ConfigError('the Stripe adapter needs the webhook signing secret: set STRIPE_WEBHOOK_SECRET (or payments.webhookSecret)');
    return { adapter: new StripePaymentAdapter(secretKey, configuredSecret, { timeoutMs: settings.timeoutMs, apiBase: env.STRIPE_API_BASE }), webhookSecret: configuredSecret, timeoutMs: settings.timeoutMs };
  }

  if (config.env === 'production' && settings.provider !== 'offline') {
    // Never take fake payments in production by accident: the server runs (catalog, admin work),
    // checkouts fail with a clear reason, webhooks are refused.
    const message = 'no payment provider configured: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or payments.provider = "offline" to run the offline test adapter on purpose';
    logger.error(message);
    return { adapter: new UnconfiguredPaymentAdapter(message), webhookSecret: '', timeoutMs: settings.timeoutMs };
  }
  const webhookSecret = configuredSecret ?? devWebhookSecret(config);
  if (!configuredSecret) logger.info({ file: path.resolve(config.dataDir, 'payments-webhook-secret') }, 'offline payment adapter: webhook secret generated under DATA_DIR');
  return { adapter: new OfflinePaymentAdapter(webhookSecret), webhookSecret, timeoutMs: settings.timeoutMs };
}

function devWebhookSecret(config: Config): string {
  const file = path.resolve(config.dataDir, 'payments-webhook-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return fs.readFileSync(file, 'utf8').trim();
  }
}

/** Production without a provider: every charge and refund is refused with the reason, every webhook 400. */
export class UnconfiguredPaymentAdapter implements PaymentAdapter {
  readonly name = 'unconfigured';
  constructor(private readonly reason: string) {}
  async createPayment() {
    return { ok: false as const, code: 'payments_not_configured', message: `Payments are not available: ${this.reason}` };
  }
  async cancelPayment(): Promise<void> {}
  async refund() {
    return { ok: false as const, code: 'payments_not_configured', message: this.reason };
  }
  verifyWebhook(): never {
    throw new WebhookSignatureError(this.reason);
  }
}

// ctx.services.payments: the core's Services registry (src/services.ts) is filled by each module, by declaration merging.
declare module '../../services.js' {
  interface Services {
    /** The payment adapter (Stripe or the offline test adapter) and the webhook secret. */
    payments: PaymentsService;
  }
}
