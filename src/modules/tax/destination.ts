// Where goods are taxed: a country (ISO 3166-1 alpha-2), optionally an ISO 3166-2 region and a
// postal code. Checkout derives it from the shipping address, or from the store's address
// (settings `branding.address`) for digital goods and pickup: those are supplied where the
// store is. Normalized here once so rates and addresses compare as plain strings.

export interface TaxDestination {
  countryCode: string;
  /** ISO 3166-2, e.g. US-CA or DE-BY. An address's bare `state` (CA) is prefixed with its country. */
  region?: string | null;
  postalCode?: string | null;
}

export interface NormalizedDestination {
  countryCode: string;
  region: string;
  postalCode: string;
}

/** Postal codes and patterns compare upper-case without spaces: "sw1a 1aa" matches "SW1A*". */
export function normalizePostal(value: string | null | undefined): string {
  return (value ?? '').toUpperCase().replace(/\s+/g, '');
}

/** A region as ISO 3166-2: `CA` in the US is `US-CA`; `US-CA` stays. */
export function normalizeRegion(countryCode: string, region: string | null | undefined): string {
  const r = (region ?? '').trim().toUpperCase();
  if (!r) return '';
  return /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(r) ? r : `${countryCode}-${r}`;
}

export function normalizeDestination(d: TaxDestination | null | undefined): NormalizedDestination | null {
  if (!d?.countryCode) return null;
  const countryCode = d.countryCode.trim().toUpperCase();
  return { countryCode, region: normalizeRegion(countryCode, d.region), postalCode: normalizePostal(d.postalCode) };
}

/** The destination of an address shaped like checkout's shipping address or the store's address. */
export function destinationOfAddress(address: { country?: unknown; state?: unknown; postalCode?: unknown } | null | undefined): TaxDestination | null {
  if (!address || typeof address.country !== 'string' || !address.country) return null;
  return {
    countryCode: address.country,
    region: typeof address.state === 'string' ? address.state : null,
    postalCode: typeof address.postalCode === 'string' ? address.postalCode : null,
  };
}
