// PIN hashing with scrypt from node:crypto (no dependency: it is a memory-hard KDF built into
// Node, and a 4–8 digit PIN needs exactly that — slow per guess — plus the lockout in auth.ts,
// since 10^8 guesses are few for any hash). Each PIN gets its own random salt; the parameters
// travel in the stored string so they can be raised later without breaking old hashes.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16_384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

export const PIN_PATTERN = /^\d{4,8}$/;

function scrypt(pin: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(pin, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/** `scrypt$N$r$p$salt$hash` (base64url) with a fresh 16-byte salt. */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(pin, salt, KEY_LENGTH, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Checked against for operators that do not exist or have no PIN: the same scrypt work as a real
 * check, so the answer's timing says nothing about whether the operator exists.
 */
let dummy: Promise<string> | null = null;
export function dummyHash(): Promise<string> {
  dummy ??= hashPin(randomBytes(8).toString('hex'));
  return dummy;
}

export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(pin, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
