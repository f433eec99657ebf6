-- A refund may name the one payment it gives back (issue 27): a cancelled replacement order's
-- exchange credit is refunded on its own, not in the order's refund sequence. Null for every
-- existing refund (they follow the sequence, as before).
ALTER TABLE "order_refunds" ADD COLUMN "payment_id" UUID;
