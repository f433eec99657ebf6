// A carrier provider prices a parcel between two addresses (issue 25): one call answers every
// service level it offers. Amounts come back in minor units of the currency they are quoted in.
export interface CarrierAddress {
  name?: string | null;
  line1?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  country: string;
}

export interface CarrierParcel {
  weightGrams: number;
  /** Millimetres; 0 when the variants carry no dimensions. */
  lengthMm: number;
  widthMm: number;
  heightMm: number;
}

export interface CarrierRateRequest {
  from: CarrierAddress;
  to: CarrierAddress;
  parcel: CarrierParcel;
  currency: string;
}

export interface CarrierRate {
  /** The service level's code (Shippo: servicelevel.token, e.g. usps_priority). */
  code: string;
  name: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** Days in transit, when the carrier says. */
  estimate: number | null;
}

export interface CarrierProvider {
  name: string;
  /** Throws CarrierUnavailable when the carrier cannot be reached, answers an error or garbage. */
  rates(request: CarrierRateRequest): Promise<CarrierRate[]>;
}

export class CarrierUnavailable extends Error {
  override name = 'CarrierUnavailable';
}

export function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * A carrier's decimal string ("12.34", "1200", "7.005") in minor units of the currency, exact:
 * done on the digits, not in floating point, rounding half up beyond the currency's fraction
 * digits (JPY has none: "1200" → 1200). Null when the text is not a non-negative decimal.
 */
export function decimalToMinor(text: string, currency: string): number | null {
  const match = /^\s*(\d+)(?:\.(\d*))?\s*$/.exec(text);
  if (!match) return null;
  const digits = fractionDigits(currency);
  const fraction = (match[2] ?? '').padEnd(digits + 1, '0');
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const minor = Number(match[1]!) * 10 ** digits + (digits ? Number(fraction.slice(0, digits)) : 0);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return fraction[digits]! >= '5' ? minor + 1 : minor;
}
