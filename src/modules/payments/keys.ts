// Idempotency keys of provider calls, derived from our records: `<payment id>:<operation>:<n>`.
// The sequence number is part of the row the call belongs to (captures: payments.capture_count
// + 1, committed only with the capture's result; refunds: the refund's id — a row committed before
// any provider call, unlike its allocation, which a rolled-back settlement plans again — and the
// allocation's attempt, raised only by a retry after a refusal), so
// a call retried after a lost answer — the transaction rolled back, nothing counted — reuses the
// key and the provider answers the first call's result instead of moving money again, while a
// deliberate second capture or a retry after a refusal gets a new key.
export const paymentKeys = {
  authorize: (paymentId: string) => `${paymentId}:authorize:1`,
  confirm: (paymentId: string) => `${paymentId}:confirm:1`,
  capture: (paymentId: string, sequence: number) => `${paymentId}:capture:${sequence}`,
  void: (paymentId: string) => `${paymentId}:void:1`,
  refund: (paymentId: string, refundId: string, attempt: number) => `${paymentId}:refund:${refundId}:${attempt}`,
};
