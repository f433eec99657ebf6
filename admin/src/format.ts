// Money arrives in integer minor units; the currency's own digits decide where the point goes.
// Intl formatters are built once per currency (and once for dates): constructing one per cell
// was a measurable share of rendering a 100-row list.
const moneyFormats = new Map<string, { format: Intl.NumberFormat; digits: number }>();

function moneyFormat(currency: string): { format: Intl.NumberFormat; digits: number } {
  let entry = moneyFormats.get(currency);
  if (!entry) {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    entry = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    moneyFormats.set(currency, entry);
  }
  return entry;
}

export function money(minor: number | null | undefined, currency = 'USD'): string {
  if (minor === null || minor === undefined) return '—';
  const { format, digits } = moneyFormat(currency);
  return format.format(minor / 10 ** digits);
}

/** "12.50" in the currency's major unit → 1250 minor units (no floats kept). */
export function toMinor(major: string, currency = 'USD'): number {
  const { digits } = moneyFormat(currency);
  const [whole = '0', fraction = ''] = major.trim().split('.');
  return Number(whole) * 10 ** digits + Number((fraction + '0'.repeat(digits)).slice(0, digits) || 0) * Math.sign(Number(whole) || 1);
}

const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function dateTime(value: string | null | undefined): string {
  return value ? dateTimeFormat.format(new Date(value)) : '—';
}
