-- Returns (issue 27): a refund settles to the original payment (the provider) or to the customer's
-- store credit ledger.
ALTER TABLE "order_refunds" ADD COLUMN "destination" TEXT NOT NULL DEFAULT 'original_payment';
