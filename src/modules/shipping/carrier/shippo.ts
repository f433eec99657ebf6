// Shippo (https://docs.goshippo.com/docs/shipments/shipmentsandrates/) as a CarrierProvider:
// POST {apiUrl}/shipments with address_from, address_to, parcels and async:false answers the
// shipment with its rates[] inline: amount as a decimal string, currency, servicelevel.token
// and estimated_days. Auth: `Authorization: ShippoToken <token>`. Sent through the guarded
// outbound client, so a configured URL cannot reach private addresses in production.
import { CarrierUnavailable, decimalToMinor, type CarrierAddress, type CarrierProvider, type CarrierRate, type CarrierRateRequest } from './provider.js';

export interface ShippoOptions {
  apiUrl: string;
  apiToken: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

interface ShippoRate {
  amount?: unknown;
  currency?: unknown;
  provider?: unknown;
  estimated_days?: unknown;
  servicelevel?: { token?: unknown; name?: unknown };
}

function address(a: CarrierAddress): Record<string, string> {
  return {
    ...(a.name ? { name: a.name } : {}),
    ...(a.line1 ? { street1: a.line1 } : {}),
    ...(a.city ? { city: a.city } : {}),
    ...(a.state ? { state: a.state } : {}),
    ...(a.postalCode ? { zip: a.postalCode } : {}),
    country: a.country,
  };
}

/** Shippo takes dimensions as decimal strings with their unit; at least 1 unit each. */
const cm = (mm: number) => String(Math.max(1, Math.ceil(mm / 10)));

export function shippoProvider(options: ShippoOptions): CarrierProvider {
  return {
    name: 'shippo',
    async rates(request: CarrierRateRequest): Promise<CarrierRate[]> {
      const body = {
        address_from: address(request.from),
        address_to: address(request.to),
        parcels: [
          {
            length: cm(request.parcel.lengthMm),
            width: cm(request.parcel.widthMm),
            height: cm(request.parcel.heightMm),
            distance_unit: 'cm',
            weight: String(Math.max(1, request.parcel.weightGrams)),
            mass_unit: 'g',
          },
        ],
        async: false,
      };
      let res: Response;
      try {
        res = await options.fetch(`${options.apiUrl.replace(/\/$/, '')}/shipments`, {
          method: 'POST',
          headers: { authorization: `ShippoToken ${options.apiToken}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        throw new CarrierUnavailable(timedOut ? `no answer within ${options.timeoutMs} ms` : 'unreachable');
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new CarrierUnavailable(`answered ${res.status}`);
      }
      let answer: { rates?: unknown };
      try {
        answer = (await res.json()) as { rates?: unknown };
      } catch {
        throw new CarrierUnavailable('answered something other than JSON');
      }
      if (!Array.isArray(answer.rates)) throw new CarrierUnavailable('answered no rates');
      return (answer.rates as ShippoRate[]).flatMap((r) => {
        const code = r.servicelevel?.token;
        if (typeof code !== 'string' || typeof r.amount !== 'string' || typeof r.currency !== 'string') return [];
        const amount = decimalToMinor(r.amount, r.currency);
        if (amount === null) return [];
        const level = typeof r.servicelevel?.name === 'string' ? r.servicelevel.name : code;
        const name = typeof r.provider === 'string' ? `${r.provider} ${level}` : level;
        const estimate = typeof r.estimated_days === 'number' && Number.isInteger(r.estimated_days) && r.estimated_days >= 0 ? r.estimated_days : null;
        return [{ code, name, amount, currency: r.currency, estimate }];
      });
    },
  };
}
