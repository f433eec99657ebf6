// Builds the payment providers once per process (ctx.services.payments) from the registry
// (provider.ts) and config:
//   payments.provider  the default provider, used by checkout when the request names none.
//                      `auto`: Stripe when a secret key is set, otherwise offline.
//   payments.enabled   further providers a checkout may name (`paymentProvider`), each built by
//                      its registered factory (a factory that finds no configuration is a boot error).
// STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET / STRIPE_API_BASE fill the Stripe settings. The
// offline provider needs a webhook secret too (tests and developers sign events with it):
// payments.webhookSecret when set, otherwise one generated once under DATA_DIR (like the auth
// secret). Production never falls back to the offline provider: without a provider (or
// payments.provider = offline chosen on purpose) every charge is refused with the reason.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../../config/index.js';
import type { Logger } from '../../logger.js';
import { OfflinePaymentProvider } from './offline.js';
import { paymentProviderFactory, registerPaymentProvider, registeredPaymentProviders, WebhookSignatureError, type PaymentProvider, type ProviderFactoryDeps } from './provider.js';
import { StripePaymentProvider } from './stripe.js';
// Registers 'adyen' (enabled when payments.adyen / ADYEN_* are set).
import { adyenConfigured } from './providers/adyen/index.js';

export interface PaymentsService {
  /** The default provider (payments.provider). */
  provider: PaymentProvider;
  /** Every enabled provider by name, the default included. */
  providers: ReadonlyMap<string, PaymentProvider>;
  /** The signing secret of the Stripe-style webhook (Stripe and offline providers). */
  webhookSecret: string;
  timeoutMs: number;
}

function stripeSecrets(deps: ProviderFactoryDeps) {
  const settings = deps.config.payments;
  return { secretKey: settings.stripeSecretKey ?? deps.env.STRIPE_SECRET_KEY, webhookSecret: settings.webhookSecret ?? deps.env.STRIPE_WEBHOOK_SECRET };
}

registerPaymentProvider('stripe', (deps) => {
  const { secretKey, webhookSecret } = stripeSecrets(deps);
  if (!secretKey) throw new ConfigError('payments.provider is stripe but no key is set: set STRIPE_SECRET_KEY (or payments.stripeSecretKey)');
  if (!webhookSecret) throw new ConfigError('the Stripe provider needs the webhook signing secret: set STRIPE_WEBHOOK_SECRET (or payments.webhookSecret)');
  const apiBase = deps.config.payments.stripeApiBase ?? deps.env.STRIPE_API_BASE;
  return new StripePaymentProvider(secretKey, webhookSecret, { timeoutMs: deps.config.payments.timeoutMs, apiBase });
});

registerPaymentProvider('offline', (deps) => {
  const configured = stripeSecrets(deps).webhookSecret;
  const webhookSecret = configured ?? devWebhookSecret(deps.config);
  if (!configured) deps.logger.info({ file: path.resolve(deps.config.dataDir, 'payments-webhook-secret') }, 'offline payment provider: webhook secret generated under DATA_DIR');
  return new OfflinePaymentProvider(webhookSecret, deps.config.baseUrl?.replace(/\/+$/, '') ?? '');
});

export function createPaymentsService(config: Config, logger: Logger, env: NodeJS.ProcessEnv = process.env): PaymentsService {
  const settings = config.payments;
  const deps: ProviderFactoryDeps = { config, logger, env };
  const timeoutMs = settings.timeoutMs;
  const secretKey = stripeSecrets(deps).secretKey;
  const name = settings.provider === 'auto' ? (secretKey ? 'stripe' : adyenConfigured(config) ? 'adyen' : 'offline') : settings.provider;

  if (name === 'offline' && config.env === 'production' && settings.provider !== 'offline') {
    // Never take fake payments in production by accident: the server runs (catalog, admin work),
    // checkouts fail with a clear reason, webhooks are refused.
    const message = 'no payment provider configured: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or payments.provider = "offline" to run the offline test provider on purpose';
    logger.error(message);
    const unconfigured = new UnconfiguredPaymentProvider(message);
    return { provider: unconfigured, providers: new Map([[unconfigured.name, unconfigured]]), webhookSecret: '', timeoutMs };
  }
  const providers = new Map<string, PaymentProvider>();
  for (const wanted of [name, ...settings.enabled, ...(adyenConfigured(config) ? ['adyen'] : [])]) {
    if (providers.has(wanted)) continue;
    const factory = paymentProviderFactory(wanted);
    if (!factory) throw new ConfigError(`payments: unknown provider ${wanted} (registered: ${registeredPaymentProviders().join(', ')})`);
    const built = factory(deps);
    if (!built) throw new ConfigError(`payments: provider ${wanted} is enabled but not configured`);
    providers.set(wanted, built);
  }
  const provider = providers.get(name);
  if (!provider) throw new ConfigError(`payments: provider ${name} was not built`);
  const webhookSecret = stripeSecrets(deps).webhookSecret ?? (providers.has('offline') ? devWebhookSecret(config) : '');
  return { provider, providers, webhookSecret, timeoutMs };
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
export class UnconfiguredPaymentProvider implements PaymentProvider {
  readonly name = 'unconfigured';
  constructor(private readonly reason: string) {}
  async authorize() {
    return { status: 'failed' as const, providerReference: null, failure: { code: 'payments_not_configured', message: `Payments are not available: ${this.reason}` } };
  }
  async confirm() {
    return this.authorize();
  }
  private async refused() {
    return { ok: false as const, code: 'payments_not_configured', message: this.reason, retryable: false };
  }
  capture() {
    return this.refused();
  }
  void() {
    return this.refused();
  }
  refund() {
    return this.refused();
  }
  async handleEvent(): Promise<never> {
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
