-- Returns (RMA, issue 27 item 1): a return of fulfilled order lines and its receipt per line.
-- CreateEnum
CREATE TYPE "return_status" AS ENUM ('requested', 'approved', 'rejected', 'received', 'refunded', 'closed', 'cancelled');

-- CreateEnum
CREATE TYPE "return_reason" AS ENUM ('damaged', 'defective', 'wrong_item', 'not_as_described', 'no_longer_needed', 'size_or_fit', 'other');

-- CreateTable
CREATE TABLE "order_returns" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "status" "return_status" NOT NULL DEFAULT 'requested',
    "reason_code" "return_reason" NOT NULL,
    "customer_note" TEXT,
    "staff_note" TEXT,
    "requested_by" TEXT,
    "requested_via" TEXT NOT NULL,
    "refund_method" TEXT,
    "refund_id" UUID,
    "refund_amount" BIGINT NOT NULL DEFAULT 0,
    "approved_at" TIMESTAMPTZ(3),
    "rejected_at" TIMESTAMPTZ(3),
    "received_at" TIMESTAMPTZ(3),
    "refunded_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "order_returns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_return_lines" (
    "id" UUID NOT NULL,
    "return_id" UUID NOT NULL,
    "line_id" UUID NOT NULL,
    "quantity" INTEGER NOT NULL,
    "disposition" TEXT,
    "warehouse_id" UUID,

    CONSTRAINT "order_return_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "order_returns_refund_id_key" ON "order_returns"("refund_id");

-- CreateIndex
CREATE INDEX "order_returns_organization_id_created_at_idx" ON "order_returns"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "order_returns_organization_id_status_created_at_idx" ON "order_returns"("organization_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "order_returns_order_id_idx" ON "order_returns"("order_id");

-- CreateIndex
CREATE INDEX "order_return_lines_line_id_idx" ON "order_return_lines"("line_id");

-- CreateIndex
CREATE UNIQUE INDEX "order_return_lines_return_id_line_id_key" ON "order_return_lines"("return_id", "line_id");

-- AddForeignKey
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_return_lines" ADD CONSTRAINT "order_return_lines_return_id_fkey" FOREIGN KEY ("return_id") REFERENCES "order_returns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_return_lines" ADD CONSTRAINT "order_return_lines_line_id_fkey" FOREIGN KEY ("line_id") REFERENCES "order_lines"("id") ON DELETE CASCADE ON UPDATE CASCADE;
