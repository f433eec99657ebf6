// Money arrives in integer minor units; the currency's own digits decide where the point goes.
export function money(minor: number | null | undefined, currency = 'USD'): string {
  if (minor === null || minor === undefined) return '—';
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** digits);
}

/** "12.50" in the currency's major unit → 1250 minor units (no floats kept). */
export function toMinor(major: string, currency = 'USD'): number {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const [whole = '0', fraction = ''] = major.trim().split('.');
  return Number(whole) * 10 ** digits + Number((fraction + '0'.repeat(digits)).slice(0, digits) || 0) * Math.sign(Number(whole) || 1);
}

export function dateTime(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}
