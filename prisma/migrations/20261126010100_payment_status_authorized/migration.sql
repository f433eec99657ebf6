-- The order's payment status (derived from its payments, issue 26) gains `authorized`: an order
-- whose payment is authorized and not captured yet (manual capture, capture on fulfilment).
ALTER TYPE "payment_status" ADD VALUE IF NOT EXISTS 'authorized' AFTER 'awaiting_payment';
