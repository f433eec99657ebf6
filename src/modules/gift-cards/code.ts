// Gift card codes: 16 characters from a 31-letter alphabet (79 bits from the crypto RNG), shown
// as XXXX-XXXX-XXXX-XXXX. Only the sha256 of the normalised code is stored (a database leak does
// not hand out spendable codes), with the last 4 characters for staff and receipts. Guessing is
// also budgeted per caller (the lookup route is `guessable`).
import { createHash, randomInt } from 'node:crypto';

// No 0/O, 1/I/L, so a code read aloud or typed from paper survives.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 16;

export function generateCode(): string {
  let raw = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) {
    if (i > 0 && i % 4 === 0) raw += '-';
    raw += ALPHABET[randomInt(ALPHABET.length)];
  }
  return raw;
}

/** What the shopper typed, as stored: upper case, separators and spaces dropped. */
export function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export function hashCode(code: string): string {
  return createHash('sha256').update(normalizeCode(code)).digest('hex');
}

export function last4Of(code: string): string {
  return normalizeCode(code).slice(-4);
}

export function maskCode(last4: string): string {
  return `****-****-****-${last4}`;
}
