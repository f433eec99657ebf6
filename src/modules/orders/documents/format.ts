// Formatting shared by the HTML and PDF documents: money from minor units in the store's locale,
// dates in the store's timezone, tax rates, and HTML escaping (every value from the database or
// settings goes through `escapeHtml` before it reaches markup).

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const formats = new Map<string, Intl.NumberFormat>();

function currencyFormat(locale: string, currency: string, display: 'symbol' | 'code'): Intl.NumberFormat {
  const key = `${locale}|${currency}|${display}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: display });
    } catch {
      format = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: display });
    }
    formats.set(key, format);
  }
  return format;
}

/** 1234 USD (minor units) → "$12.34"; JPY has no minor unit, so 1234 JPY → "¥1,234". */
export function formatMoney(minor: number, currency: string, locale: string, display: 'symbol' | 'code' = 'symbol'): string {
  const format = currencyFormat(locale, currency, display);
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** The PDF's standard fonts cover WinAnsi only: spaces normalized, other symbols fall back to the currency code. */
export function formatMoneyForPdf(minor: number, currency: string, locale: string): string {
  const text = formatMoney(minor, currency, locale).replace(/[\u00a0\u202f]/g, ' ');
  return /^[\x20-\x7e\u00a0-\u00ff€]*$/.test(text) ? text : formatMoney(minor, currency, locale, 'code').replace(/[\u00a0\u202f]/g, ' ');
}

export function formatDate(at: Date, locale: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'long' }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

export function formatDateTime(at: Date, locale: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(at);
  } catch {
    return at.toISOString();
  }
}

/** 1900 bps → "19%", 725 → "7.25%". */
export function formatRate(rateBps: number): string {
  return `${(rateBps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;
}

export function addressLines(address: Record<string, unknown> | null | undefined): string[] {
  if (!address) return [];
  const a = address as Record<string, string | undefined>;
  const name = [a.firstName, a.lastName].filter(Boolean).join(' ');
  const cityLine = [a.postalCode, a.city, a.state].filter(Boolean).join(' ');
  return [name, a.company, a.line1, a.line2, cityLine, a.country].filter((part): part is string => typeof part === 'string' && part.trim() !== '');
}
