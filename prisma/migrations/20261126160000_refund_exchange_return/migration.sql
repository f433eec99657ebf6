-- The refund an exchange writes on the original order (the credit moved onto the replacement)
-- names its return (issue 27). The way back of an exchange credit found these rows by their
-- reason text, which a staff refund could imitate; it now reads this column. Existing transfer
-- refunds are recognised once, here, by the exact text returns/exchange.ts wrote and by having
-- been settled without a provider refund.
ALTER TABLE "order_refunds" ADD COLUMN "exchange_return_id" UUID;

UPDATE "order_refunds" r
SET "exchange_return_id" = ret."id"
FROM "order_returns" ret
WHERE r."reason" LIKE 'exchange %: credit toward the replacement order'
  AND r."provider_refund_id" IS NULL
  AND ret."order_id" = r."order_id"
  AND ret."exchange_order_id" IS NOT NULL
  AND r."reason" LIKE 'exchange ' || ret."id"::text || ' %';
