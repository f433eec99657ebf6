// Payout adapters: how money reaches a vendor. `offline` (the default) records the payout as
// paid — the shop pays by bank transfer outside the service. `stripe` makes a Stripe Connect
// transfer to the vendor's connected account, through the Stripe SDK the payments module
// already loads lazily (src/lazy.ts). Every call carries the payout's idempotency key, so a
// retried payout (after a timeout or a failure) is never paid twice by the provider.
import type Stripe from 'stripe';
import { lazyModule } from '../../src/lazy.js';

const StripeSdk = lazyModule<typeof Stripe>('stripe');

export interface PayoutRequest {
  payoutId: string;
  vendorId: string;
  amount: number;
  currency: string;
  idempotencyKey: string;
  /** The vendor's Stripe Connect account (stripe adapter). */
  destination: string | null;
}

export type PayoutResult = { ok: true; externalId: string } | { ok: false; message: string };

export interface PayoutAdapter {
  readonly name: string;
  pay(request: PayoutRequest): Promise<PayoutResult>;
}

export const offlinePayoutAdapter: PayoutAdapter = {
  name: 'offline',
  async pay(request) {
    return { ok: true, externalId: `offline:${request.idempotencyKey}` };
  },
};

export interface StripePayoutOptions {
  timeoutMs?: number;
  /** Another Stripe API address (stripe-mock, a proxy, the tests' fake): host, port, protocol. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

export function stripePayoutAdapter(secretKey: string, options: StripePayoutOptions = {}): PayoutAdapter {
  let client: Stripe | null = null;
  return {
    name: 'stripe',
    async pay(request) {
      if (!request.destination) return { ok: false, message: 'the vendor has no Stripe Connect account (stripeAccountId)' };
      // Network retries reuse the idempotency key, so a timeout never becomes a second transfer.
      client ??= new (StripeSdk())(secretKey, { timeout: options.timeoutMs ?? 20_000, maxNetworkRetries: 2, ...(options.api ?? {}) });
      try {
        const transfer = await client.transfers.create(
          {
            amount: request.amount,
            currency: request.currency.toLowerCase(),
            destination: request.destination,
            metadata: { payoutId: request.payoutId, vendorId: request.vendorId },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return { ok: true, externalId: transfer.id };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
