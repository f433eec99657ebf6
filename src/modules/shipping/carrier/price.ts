// Pricing a cart with a `carrier` calculator: the provider's rates for the parcel, the cheapest
// of the method's service levels in the cart's currency, plus the markup. The answer is kept per
// organization, cart and request (same contents and address → no second call within the TTL;
// the promise itself is kept, so two concurrent quotes make one call). When the provider is not
// configured, fails, times out or offers none of the levels, the fallback calculator prices the
// cart; without one the method is not offered. Never an error to the shopper.
import { createHash } from 'node:crypto';
import type { Config } from '../../../config/index.js';
import { allowsPrivateWebhookTargets } from '../../../config/schema.js';
import { guardedFetch } from '../../webhooks/guarded-fetch.js';
import { tracedFetch } from '../../../observability/trace-context.js';
import { priceWith, type CalcInput, type CarrierCalculator, type CarrierProviderName } from '../calculators.js';
import { TtlLru } from './cache.js';
import { shippoProvider } from './shippo.js';
import type { CarrierProvider, CarrierRate, CarrierRateRequest } from './provider.js';

export interface CarrierRuntime {
  providers: Partial<Record<CarrierProviderName, CarrierProvider>>;
  cache: TtlLru<Promise<CarrierRate[]>>;
}

// One runtime per app (its config object): tests start apps with different providers in one process.
const runtimes = new WeakMap<Config, CarrierRuntime>();

export function carrierRuntime(config: Config): CarrierRuntime {
  let runtime = runtimes.get(config);
  if (!runtime) {
    const settings = config.shipping.carrier;
    const send = tracedFetch(guardedFetch({ allowPrivate: allowsPrivateWebhookTargets(config), timeoutMs: settings.timeoutMs }), 'carrier');
    runtime = {
      providers: settings.shippo.apiToken
        ? { shippo: shippoProvider({ apiUrl: settings.shippo.apiUrl, apiToken: settings.shippo.apiToken, timeoutMs: settings.timeoutMs, fetch: send }) }
        : {},
      cache: new TtlLru(settings.cacheSize, settings.cacheTtlMs),
    };
    runtimes.set(config, runtime);
  }
  return runtime;
}

export interface CarrierContext {
  runtime: CarrierRuntime;
  organizationId: string;
  /** The cart quoted, for the cache key; null outside a cart. */
  cartId: string | null;
}

/** The carrier context of a request on a cart. */
export function carrierContext(ctx: { config: Config; organization: { id: string } }, cartId: string | null): CarrierContext {
  return { runtime: carrierRuntime(ctx.config), organizationId: ctx.organization.id, cartId };
}

export interface CarrierPrice {
  amount: number;
  /** Days in transit from the carrier's rate; null when priced by the fallback or unknown. */
  estimateDays: number | null;
}

async function ratesOf(carrier: CarrierContext, provider: CarrierProviderName, request: CarrierRateRequest): Promise<CarrierRate[] | null> {
  const impl = carrier.runtime.providers[provider];
  if (!impl) return null;
  const hash = createHash('sha256')
    .update(JSON.stringify([provider, request]))
    .digest('hex');
  const key = `${carrier.organizationId}:${carrier.cartId ?? '-'}:${hash}`;
  let pending = carrier.runtime.cache.get(key);
  if (!pending) {
    pending = impl.rates(request);
    carrier.runtime.cache.set(key, pending);
    // A failure is not kept: the next quote asks again.
    pending.catch(() => carrier.runtime.cache.delete(key));
  }
  try {
    return await pending;
  } catch {
    return null;
  }
}

export async function priceWithCarrier(carrier: CarrierContext | null, calc: CarrierCalculator, request: CarrierRateRequest, cart: CalcInput): Promise<CarrierPrice | null> {
  const rates = carrier ? await ratesOf(carrier, calc.provider, request) : null;
  const offered = (rates ?? []).filter((r) => r.currency === cart.currency && (!calc.serviceLevels.length || calc.serviceLevels.includes(r.code)));
  if (offered.length) {
    const best = offered.reduce((a, b) => (b.amount < a.amount ? b : a));
    // Markup in basis points, rounded half up to the minor unit.
    return { amount: best.amount + Math.floor((best.amount * calc.markupBps + 5_000) / 10_000), estimateDays: best.estimate };
  }
  if (!calc.fallback) return null;
  const amount = priceWith(calc.fallback, cart);
  return amount === null ? null : { amount, estimateDays: null };
}
