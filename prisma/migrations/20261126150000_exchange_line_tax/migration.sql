-- Exchanges are priced like any order (issue 27): the outbound lines carry their discount and
-- tax, and the return records the tax context they were priced in.
-- AlterTable
ALTER TABLE "order_return_exchange_lines" ADD COLUMN     "discount_total" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "tax_class_id" UUID,
ADD COLUMN     "tax_rate_bps" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tax_total" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "order_returns" ADD COLUMN     "exchange_pricing" JSONB;
