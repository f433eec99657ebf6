// The parts of Adyen's Checkout API (v71) we send and read. Field names are Adyen's; amounts are
// integer minor units already ({ value: 1099, currency: 'EUR' }), like ours.
// Reference: https://docs.adyen.com/api-explorer/Checkout/71/overview

export interface AdyenAmount {
  value: number;
  currency: string;
}

/** Every /payments answer's outcome. Only Authorised means the money is reserved. */
export type AdyenResultCode =
  | 'Authorised'
  | 'Refused'
  | 'Error'
  | 'Cancelled'
  | 'Pending'
  | 'Received'
  | 'RedirectShopper'
  | 'IdentifyShopper'
  | 'ChallengeShopper'
  | 'PresentToShopper'
  | 'AuthenticationFinished'
  | 'AuthenticationNotRequired'
  | 'PartiallyAuthorised';

/** What the shopper must do next: a redirect (3-D Secure page, bank page) or an SDK step (native 3DS2). */
export interface AdyenAction {
  type: 'redirect' | 'threeDS2' | 'await' | 'qrCode' | 'voucher' | 'sdk' | string;
  paymentMethodType?: string;
  url?: string;
  method?: 'GET' | 'POST';
  /** Form fields to POST to `url` when method is POST. */
  data?: Record<string, string>;
  paymentData?: string;
  subtype?: 'fingerprint' | 'challenge' | string;
  token?: string;
  authorisationToken?: string;
}

export interface AdyenPaymentRequest {
  merchantAccount: string;
  amount: AdyenAmount;
  /** Our reference for the payment (the payment record's id): it comes back as merchantReference. */
  reference: string;
  /** The Drop-in/Components `paymentMethod` object (encrypted card fields) or a stored method. */
  paymentMethod: Record<string, unknown>;
  returnUrl: string;
  shopperEmail?: string;
  shopperReference?: string;
  /** Hours until Adyen captures automatically; absent = the merchant account's setting. */
  captureDelayHours?: number;
  /** `manualCapture: 'true'` makes this one payment wait for a /captures call. */
  additionalData?: Record<string, string>;
  /** Native 3DS2 when the storefront runs Adyen's SDK; otherwise a redirect. */
  authenticationData?: { threeDSRequestData?: { nativeThreeDS?: 'preferred' | 'disabled' } };
  channel?: 'Web' | 'iOS' | 'Android';
  origin?: string;
  browserInfo?: Record<string, unknown>;
  metadata?: Record<string, string>;
}

/** /payments and /payments/details answers. */
export interface AdyenPaymentResponse {
  resultCode: AdyenResultCode;
  pspReference?: string;
  merchantReference?: string;
  amount?: AdyenAmount;
  action?: AdyenAction;
  refusalReason?: string;
  refusalReasonCode?: string;
  additionalData?: Record<string, string>;
}

export interface AdyenPaymentDetailsRequest {
  /** `redirectResult` from the return URL, or `threeDSResult` from the SDK. */
  details: Record<string, string>;
  /** Only older redirect flows need it; the action carries it when so. */
  paymentData?: string;
}

/** /payments/{pspReference}/captures|cancels|refunds answers: the request was received, the outcome comes by notification. */
export interface AdyenModificationResponse {
  merchantAccount: string;
  paymentPspReference: string;
  pspReference: string;
  reference?: string;
  status: 'received';
  amount?: AdyenAmount;
}

/** Adyen's error answer for 4xx/5xx. */
export interface AdyenErrorBody {
  status: number;
  errorCode: string;
  message: string;
  errorType: 'validation' | 'security' | 'configuration' | 'internal' | string;
  pspReference?: string;
}

/** Standard notification (webhook) payload: several items per delivery, each signed on its own. */
export interface AdyenNotification {
  live: 'true' | 'false';
  notificationItems: Array<{ NotificationRequestItem: AdyenNotificationItem }>;
}

export interface AdyenNotificationItem {
  eventCode: string;
  /** 'true' | 'false' as strings. */
  success: string;
  pspReference: string;
  /** For modifications (CAPTURE, REFUND, CANCELLATION…): the payment's pspReference. */
  originalReference?: string;
  merchantAccountCode: string;
  merchantReference: string;
  amount: AdyenAmount;
  eventDate?: string;
  reason?: string;
  paymentMethod?: string;
  operations?: string[];
  additionalData?: Record<string, string> & { hmacSignature?: string };
}
