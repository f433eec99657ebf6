// Stripe's webhook signature scheme (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
// "t.body">`), through the stripe package's own implementation, for both adapters. Tolerance is
// Stripe's default (300 s): a replayed old delivery is refused.
import type StripeModule from 'stripe';
import { lazyModule } from '../../lazy.js';
import { WebhookSignatureError, type ProviderEvent } from './adapter.js';

const Stripe = lazyModule<typeof StripeModule>('stripe');

export const SIGNATURE_HEADER = 'stripe-signature';

export function verifyStripeSignature(rawBody: string, header: string, secret: string): ProviderEvent {
  try {
    return Stripe().webhooks.constructEvent(rawBody, header, secret) as unknown as ProviderEvent;
  } catch (error) {
    throw new WebhookSignatureError((error as Error).message);
  }
}

/** The header Stripe would send for `payload` (tests and `stripe trigger`-like tooling). */
export function signStripePayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return Stripe().webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
