// Stripe's webhook signature scheme (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
// "t.body">`), through the stripe package's own implementation, for the Stripe and offline
// providers. Tolerance is Stripe's default (300 s): a replayed old delivery is refused.
import type StripeModule from 'stripe';
import { lazyModule } from '../../lazy.js';
import { WebhookSignatureError } from './provider.js';

const Stripe = lazyModule<typeof StripeModule>('stripe');

export const SIGNATURE_HEADER = 'stripe-signature';

/** A verified Stripe Event (the fields we read). */
export interface StripeEvent {
  id: string;
  type: string;
  created?: number;
  data: { object: Record<string, unknown> & { id?: string; metadata?: Record<string, string> | null; amount_received?: number; amount?: number } };
}

export function verifyStripeSignature(rawBody: string, header: string, secret: string): StripeEvent {
  let event: StripeEvent;
  try {
    event = Stripe().webhooks.constructEvent(rawBody, header, secret) as unknown as StripeEvent;
  } catch (error) {
    throw new WebhookSignatureError((error as Error).message);
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string') throw new WebhookSignatureError('not an event');
  return event;
}

/** The header Stripe would send for `payload` (tests and `stripe trigger`-like tooling). */
export function signStripePayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return Stripe().webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
