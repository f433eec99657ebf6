-- CreateTable
CREATE TABLE "plugin_loyalty_stamps" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "customer_email" TEXT NOT NULL,
    "order_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plugin_loyalty_stamps_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "plugin_loyalty_stamps_organization_id_customer_email_idx" ON "plugin_loyalty_stamps"("organization_id", "customer_email");

-- CreateIndex
CREATE UNIQUE INDEX "plugin_loyalty_stamps_organization_id_order_id_key" ON "plugin_loyalty_stamps"("organization_id", "order_id");
