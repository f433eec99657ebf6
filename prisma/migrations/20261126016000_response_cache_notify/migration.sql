-- Response cache invalidation (src/cache): an outbox event that changes what storefront catalog
-- reads answer (catalog, pricing, inventory, settings) and any write to the settings table (which
-- records no outbox event) notify `commerce_cache` with the organization id. NOTIFY is delivered
-- at commit and never for a rolled-back write, so every API process drops exactly the
-- organization's entries once the change is visible; identical notifications of one
-- transaction are folded into one by PostgreSQL.
CREATE FUNCTION "commerce_notify_cache_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."type" LIKE 'catalog.%' OR NEW."type" LIKE 'pricing.%' OR NEW."type" LIKE 'inventory.%' OR NEW."type" LIKE 'settings.%' THEN
    PERFORM pg_notify('commerce_cache', NEW."organization_id"::text);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "events_notify_cache" AFTER INSERT ON "events"
  FOR EACH ROW EXECUTE FUNCTION "commerce_notify_cache_event"();

CREATE FUNCTION "commerce_notify_cache_settings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('commerce_cache', COALESCE(NEW."organization_id", OLD."organization_id")::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER "settings_notify_cache" AFTER INSERT OR UPDATE OR DELETE ON "settings"
  FOR EACH ROW EXECUTE FUNCTION "commerce_notify_cache_settings"();

-- Media attachments and assets (include=media, renditions) record no outbox event either.
CREATE FUNCTION "commerce_notify_cache_media"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('commerce_cache', COALESCE(NEW."organization_id", OLD."organization_id")::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER "media_attachments_notify_cache" AFTER INSERT OR UPDATE OR DELETE ON "media_attachments"
  FOR EACH ROW EXECUTE FUNCTION "commerce_notify_cache_media"();

CREATE TRIGGER "media_assets_notify_cache" AFTER INSERT OR UPDATE OR DELETE ON "media_assets"
  FOR EACH ROW EXECUTE FUNCTION "commerce_notify_cache_media"();
