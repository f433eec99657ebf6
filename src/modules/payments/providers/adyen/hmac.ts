// Adyen's HMAC signature of standard notifications: each NotificationRequestItem carries
// additionalData.hmacSignature = base64(HMAC-SHA256(key as hex bytes, signing string)), where the
// signing string joins pspReference, originalReference, merchantAccountCode, merchantReference,
// amount.value, amount.currency, eventCode and success with ':' (a missing value is empty).
// The key is the one generated for the webhook in the Customer Area (hex).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AdyenNotificationItem } from './types.js';

export function notificationSigningString(item: AdyenNotificationItem): string {
  return [
    item.pspReference ?? '',
    item.originalReference ?? '',
    item.merchantAccountCode ?? '',
    item.merchantReference ?? '',
    item.amount?.value ?? '',
    item.amount?.currency ?? '',
    item.eventCode ?? '',
    item.success ?? '',
  ].join(':');
}

export function signNotificationItem(item: AdyenNotificationItem, hexKey: string): string {
  return createHmac('sha256', Buffer.from(hexKey, 'hex')).update(notificationSigningString(item), 'utf8').digest('base64');
}

/** Constant-time check of the item's hmacSignature; false when missing or malformed. */
export function verifyNotificationItem(item: AdyenNotificationItem, hexKey: string): boolean {
  const given = item.additionalData?.hmacSignature;
  if (typeof given !== 'string' || !given) return false;
  const expected = Buffer.from(signNotificationItem(item, hexKey), 'base64');
  const actual = Buffer.from(given, 'base64');
  // Equal lengths first: timingSafeEqual throws otherwise (the length is not a secret).
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
