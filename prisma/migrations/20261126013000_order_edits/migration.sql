-- Order edits (issue 27): previewed edits of an unfulfilled order, confirmed or cancelled.
CREATE TABLE "order_edits" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "operations" JSONB NOT NULL,
    "before" JSONB NOT NULL,
    "after" JSONB NOT NULL,
    "order_fingerprint" TEXT NOT NULL,
    "difference" BIGINT NOT NULL,
    "payment_action" TEXT,
    "refund_id" UUID,
    "reason" TEXT,
    "created_by_id" TEXT,
    "created_by_kind" TEXT NOT NULL,
    "decided_by_id" TEXT,
    "decided_by_kind" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_edits_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "order_edits_order_id_created_at_idx" ON "order_edits"("order_id", "created_at");
CREATE INDEX "order_edits_organization_id_created_at_idx" ON "order_edits"("organization_id", "created_at");

ALTER TABLE "order_edits" ADD CONSTRAINT "order_edits_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
