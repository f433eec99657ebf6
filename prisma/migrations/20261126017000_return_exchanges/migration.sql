-- Exchanges (issue 27 item 2): a return whose outbound side is new lines, reserved at creation and
-- settled (replacement order, difference charged or refunded) after receipt.
-- AlterEnum
ALTER TYPE "return_status" ADD VALUE 'exchanged';

-- AlterTable
ALTER TABLE "order_returns" ADD COLUMN "exchange_order_id" UUID,
ADD COLUMN "exchange_total" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "exchange_credit" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "exchange_difference" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "exchange_payment_id" UUID,
ADD COLUMN "exchanged_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "order_returns_exchange_order_id_key" ON "order_returns"("exchange_order_id");

-- CreateTable
CREATE TABLE "order_return_exchange_lines" (
    "id" UUID NOT NULL,
    "return_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "entity_type" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_price" BIGINT NOT NULL,
    "total_price" BIGINT NOT NULL,
    "reservations" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "order_return_exchange_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "order_return_exchange_lines_return_id_position_idx" ON "order_return_exchange_lines"("return_id", "position");

-- AddForeignKey
ALTER TABLE "order_return_exchange_lines" ADD CONSTRAINT "order_return_exchange_lines_return_id_fkey" FOREIGN KEY ("return_id") REFERENCES "order_returns"("id") ON DELETE CASCADE ON UPDATE CASCADE;
