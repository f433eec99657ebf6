-- The dashboard's orders filters (issue 28): payment status newest first, a created-at window,
-- and search by order number or customer email (ILIKE '%term%': trigram indexes; pg_trgm is
-- created by the search migration).

-- CreateIndex
CREATE INDEX "orders_organization_id_payment_status_placed_at_idx" ON "orders"("organization_id", "payment_status", "placed_at");

-- CreateIndex
CREATE INDEX "orders_organization_id_created_at_idx" ON "orders"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "orders_number_trgm_idx" ON "orders" USING GIN ("number" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "orders_customer_email_trgm_idx" ON "orders" USING GIN ("customer_email" gin_trgm_ops);
