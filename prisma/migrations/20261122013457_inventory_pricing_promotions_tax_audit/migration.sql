-- CreateEnum
CREATE TYPE "price_modifier_type" AS ENUM ('percentage', 'fixed');

-- CreateEnum
CREATE TYPE "promotion_type" AS ENUM ('percentage_off_order', 'fixed_amount_off_order', 'percentage_off_item', 'free_shipping', 'buy_x_get_y');

-- CreateTable
CREATE TABLE "warehouses" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "address" JSONB,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "warehouses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_levels" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "variant_key" TEXT NOT NULL,
    "warehouse_id" UUID NOT NULL,
    "on_hand" INTEGER NOT NULL DEFAULT 0,
    "reserved" INTEGER NOT NULL DEFAULT 0,
    "unit_cost" BIGINT,
    "reorder_threshold" INTEGER NOT NULL DEFAULT 0,
    "last_restocked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inventory_levels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_movements" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "level_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "warehouse_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "on_hand_after" INTEGER NOT NULL,
    "unit_cost" BIGINT,
    "reference" TEXT,
    "note" TEXT,
    "actor_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inventory_movements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_reservations" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "level_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "warehouse_id" UUID NOT NULL,
    "quantity" INTEGER NOT NULL,
    "released" INTEGER NOT NULL DEFAULT 0,
    "consumed" INTEGER NOT NULL DEFAULT 0,
    "reference" TEXT,
    "actor_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inventory_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prices" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "variant_id" UUID,
    "currency" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "customer_group_id" TEXT,
    "scope_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_modifiers" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "type" "price_modifier_type" NOT NULL,
    "value" BIGINT NOT NULL,
    "currency" TEXT,
    "entity_id" UUID,
    "category_id" UUID,
    "customer_group_id" TEXT,
    "min_quantity" INTEGER NOT NULL DEFAULT 1,
    "valid_from" TIMESTAMPTZ(3),
    "valid_until" TIMESTAMPTZ(3),
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "price_modifiers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "promotions" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "type" "promotion_type" NOT NULL,
    "value" BIGINT NOT NULL,
    "currency" TEXT,
    "valid_from" TIMESTAMPTZ(3) NOT NULL,
    "valid_until" TIMESTAMPTZ(3),
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "usage_limit" INTEGER,
    "usage_limit_per_customer" INTEGER,
    "times_used" INTEGER NOT NULL DEFAULT 0,
    "min_subtotal" BIGINT,
    "entity_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "entity_types" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "customer_group_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "buy_quantity" INTEGER,
    "get_quantity" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "promotions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "promotion_redemptions" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "promotion_id" UUID NOT NULL,
    "customer_id" TEXT,
    "order_id" TEXT,
    "reference" TEXT,
    "currency" TEXT NOT NULL,
    "discount_amount" BIGINT NOT NULL,
    "released_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "promotion_redemptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tax_classes" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "rate_bps" INTEGER NOT NULL,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tax_classes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "actor_id" TEXT,
    "actor_type" TEXT NOT NULL,
    "api_key_id" TEXT,
    "event" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" TEXT,
    "before" JSONB,
    "after" JSONB,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "warehouses_organization_id_created_at_idx" ON "warehouses"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "warehouses_organization_id_code_key" ON "warehouses"("organization_id", "code");

-- CreateIndex
CREATE INDEX "inventory_levels_organization_id_entity_id_idx" ON "inventory_levels"("organization_id", "entity_id");

-- CreateIndex
CREATE INDEX "inventory_levels_variant_id_idx" ON "inventory_levels"("variant_id");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_levels_warehouse_id_entity_id_variant_key_key" ON "inventory_levels"("warehouse_id", "entity_id", "variant_key");

-- CreateIndex
CREATE INDEX "inventory_movements_level_id_created_at_idx" ON "inventory_movements"("level_id", "created_at");

-- CreateIndex
CREATE INDEX "inventory_movements_organization_id_entity_id_created_at_idx" ON "inventory_movements"("organization_id", "entity_id", "created_at");

-- CreateIndex
CREATE INDEX "inventory_reservations_organization_id_reference_idx" ON "inventory_reservations"("organization_id", "reference");

-- CreateIndex
CREATE INDEX "inventory_reservations_level_id_created_at_idx" ON "inventory_reservations"("level_id", "created_at");

-- CreateIndex
CREATE INDEX "prices_organization_id_currency_created_at_idx" ON "prices"("organization_id", "currency", "created_at");

-- CreateIndex
CREATE INDEX "prices_variant_id_idx" ON "prices"("variant_id");

-- CreateIndex
CREATE UNIQUE INDEX "prices_organization_id_entity_id_currency_scope_key_key" ON "prices"("organization_id", "entity_id", "currency", "scope_key");

-- CreateIndex
CREATE INDEX "price_modifiers_organization_id_is_active_created_at_idx" ON "price_modifiers"("organization_id", "is_active", "created_at");

-- CreateIndex
CREATE INDEX "price_modifiers_entity_id_idx" ON "price_modifiers"("entity_id");

-- CreateIndex
CREATE INDEX "price_modifiers_category_id_idx" ON "price_modifiers"("category_id");

-- CreateIndex
CREATE INDEX "promotions_organization_id_is_active_valid_from_idx" ON "promotions"("organization_id", "is_active", "valid_from");

-- CreateIndex
CREATE UNIQUE INDEX "promotions_organization_id_code_key" ON "promotions"("organization_id", "code");

-- CreateIndex
CREATE INDEX "promotion_redemptions_promotion_id_customer_id_idx" ON "promotion_redemptions"("promotion_id", "customer_id");

-- CreateIndex
CREATE INDEX "promotion_redemptions_organization_id_order_id_idx" ON "promotion_redemptions"("organization_id", "order_id");

-- CreateIndex
CREATE UNIQUE INDEX "tax_classes_organization_id_name_key" ON "tax_classes"("organization_id", "name");

-- CreateIndex
CREATE INDEX "audit_entries_organization_id_created_at_idx" ON "audit_entries"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_entries_organization_id_entity_type_entity_id_created_idx" ON "audit_entries"("organization_id", "entity_type", "entity_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_entries_organization_id_event_created_at_idx" ON "audit_entries"("organization_id", "event", "created_at");

-- CreateIndex
CREATE INDEX "audit_entries_organization_id_actor_id_created_at_idx" ON "audit_entries"("organization_id", "actor_id", "created_at");

-- AddForeignKey
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "catalog_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_warehouse_id_fkey" FOREIGN KEY ("warehouse_id") REFERENCES "warehouses"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_movements" ADD CONSTRAINT "inventory_movements_level_id_fkey" FOREIGN KEY ("level_id") REFERENCES "inventory_levels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_reservations" ADD CONSTRAINT "inventory_reservations_level_id_fkey" FOREIGN KEY ("level_id") REFERENCES "inventory_levels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prices" ADD CONSTRAINT "prices_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prices" ADD CONSTRAINT "prices_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "catalog_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_modifiers" ADD CONSTRAINT "price_modifiers_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "catalog_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_modifiers" ADD CONSTRAINT "price_modifiers_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "catalog_categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_promotion_id_fkey" FOREIGN KEY ("promotion_id") REFERENCES "promotions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ── Hand-added: what Prisma cannot express ──

-- At most one default warehouse and one default tax class per organization.
CREATE UNIQUE INDEX "warehouses_one_default_key" ON "warehouses"("organization_id") WHERE "is_default";
CREATE UNIQUE INDEX "tax_classes_one_default_key" ON "tax_classes"("organization_id") WHERE "is_default";

-- Invariants the services rely on; a bug elsewhere fails loudly instead of corrupting stock.
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_reserved_check" CHECK ("reserved" >= 0);
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_reorder_threshold_check" CHECK ("reorder_threshold" >= 0);
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_unit_cost_check" CHECK ("unit_cost" IS NULL OR "unit_cost" >= 0);
ALTER TABLE "inventory_reservations" ADD CONSTRAINT "inventory_reservations_quantities_check"
  CHECK ("quantity" > 0 AND "released" >= 0 AND "consumed" >= 0 AND "released" + "consumed" <= "quantity");
ALTER TABLE "prices" ADD CONSTRAINT "prices_amount_check" CHECK ("amount" >= 0);
ALTER TABLE "price_modifiers" ADD CONSTRAINT "price_modifiers_value_check" CHECK ("value" > 0 AND ("type" <> 'percentage' OR "value" <= 10000));
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_times_used_check" CHECK ("times_used" >= 0 AND ("usage_limit" IS NULL OR "times_used" <= "usage_limit"));
ALTER TABLE "tax_classes" ADD CONSTRAINT "tax_classes_rate_bps_check" CHECK ("rate_bps" >= 0 AND "rate_bps" <= 10000);

-- Permission-relevant identity changes are audited by the database itself: users (created with a
-- role, role or organization changed, deleted) and API keys (minted, enabled/disabled, scope,
-- permissions or expiry changed, deleted). These rows are written by better-auth and the CLI,
-- outside the route builder that audits every operation, so a trigger is the one place that
-- sees them all. The row lands in the same transaction as the change. Only non-secret columns
-- are copied (never the key hash, never a password). The actor is whoever set
-- `commerce.actor_id` for the transaction, or null (an operator at the command line).
CREATE FUNCTION "audit_identity_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org uuid;
  entity text;
  event_name text;
  before_row jsonb;
  after_row jsonb;
  meta jsonb;
  source record;
BEGIN
  IF TG_OP = 'DELETE' THEN source := OLD; ELSE source := NEW; END IF;
  IF TG_TABLE_NAME = 'users' THEN
    entity := 'user';
    org := source.organization_id;
    IF TG_OP <> 'INSERT' THEN before_row := jsonb_build_object('email', OLD.email, 'role', OLD.role, 'organizationId', OLD.organization_id); END IF;
    IF TG_OP <> 'DELETE' THEN after_row := jsonb_build_object('email', NEW.email, 'role', NEW.role, 'organizationId', NEW.organization_id); END IF;
    event_name := CASE TG_OP WHEN 'INSERT' THEN 'users.create' WHEN 'DELETE' THEN 'users.delete' ELSE 'users.roleChange' END;
  ELSE
    entity := 'api_key';
    BEGIN
      meta := source.metadata::jsonb;
      IF jsonb_typeof(meta) = 'string' THEN meta := (meta #>> '{}')::jsonb; END IF;
      org := (meta ->> 'organizationId')::uuid;
    EXCEPTION WHEN others THEN
      org := NULL;
    END;
    IF org IS NULL THEN
      SELECT u.organization_id INTO org FROM users u WHERE u.id = source.reference_id;
    END IF;
    IF TG_OP <> 'INSERT' THEN
      before_row := jsonb_build_object('name', OLD.name, 'scope', OLD.config_id, 'start', OLD.start, 'userId', OLD.reference_id,
        'enabled', OLD.enabled, 'expiresAt', OLD.expires_at, 'permissions', OLD.permissions);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      after_row := jsonb_build_object('name', NEW.name, 'scope', NEW.config_id, 'start', NEW.start, 'userId', NEW.reference_id,
        'enabled', NEW.enabled, 'expiresAt', NEW.expires_at, 'permissions', NEW.permissions);
    END IF;
    event_name := CASE TG_OP WHEN 'INSERT' THEN 'apiKeys.create' WHEN 'DELETE' THEN 'apiKeys.delete' ELSE 'apiKeys.update' END;
  END IF;
  IF org IS NOT NULL THEN
    INSERT INTO audit_entries (id, organization_id, actor_id, actor_type, event, entity_type, entity_id, before, after, request_id)
    VALUES (gen_random_uuid(), org, nullif(current_setting('commerce.actor_id', true), ''),
      CASE WHEN nullif(current_setting('commerce.actor_id', true), '') IS NULL THEN 'system' ELSE 'user' END,
      event_name, entity, source.id, before_row, after_row, nullif(current_setting('commerce.request_id', true), ''));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "users_audit_insert_delete" AFTER INSERT OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "audit_identity_change"();
CREATE TRIGGER "users_audit_role_change" AFTER UPDATE OF "role", "organization_id" ON "users"
  FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION "audit_identity_change"();
CREATE TRIGGER "api_keys_audit_insert_delete" AFTER INSERT OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "audit_identity_change"();
CREATE TRIGGER "api_keys_audit_change" AFTER UPDATE ON "api_keys"
  FOR EACH ROW WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled OR OLD.config_id IS DISTINCT FROM NEW.config_id
    OR OLD.permissions IS DISTINCT FROM NEW.permissions OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR OLD.reference_id IS DISTINCT FROM NEW.reference_id)
  EXECUTE FUNCTION "audit_identity_change"();
