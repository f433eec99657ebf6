-- Trigram matching for search suggestions (a trusted extension: no superuser needed).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateTable
CREATE TABLE "search_documents" (
    "entity_id" UUID NOT NULL,
    "locale" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "status" "catalog_entity_status" NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "document" tsvector NOT NULL,
    "attrs" JSONB NOT NULL DEFAULT '{}',
    "category_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "brand_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "entity_created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "search_documents_pkey" PRIMARY KEY ("entity_id","locale")
);

-- CreateIndex
CREATE INDEX "search_documents_document_idx" ON "search_documents" USING GIN ("document");

-- CreateIndex
CREATE INDEX "search_documents_attrs_idx" ON "search_documents" USING GIN ("attrs" jsonb_path_ops);

-- CreateIndex
CREATE INDEX "search_documents_title_trgm_idx" ON "search_documents" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "search_documents_category_ids_idx" ON "search_documents" USING GIN ("category_ids");

-- CreateIndex
CREATE INDEX "search_documents_brand_ids_idx" ON "search_documents" USING GIN ("brand_ids");

-- CreateIndex
CREATE INDEX "search_documents_organization_id_locale_status_entity_creat_idx" ON "search_documents"("organization_id", "locale", "status", "entity_created_at");

-- CreateIndex
CREATE INDEX "catalog_variants_sku_trgm_idx" ON "catalog_variants" USING GIN ("sku" gin_trgm_ops);

-- ── search documents kept current by triggers ──
-- Every catalog write that changes what search sees (entity type/status, localized attributes,
-- custom-field values and definitions, category and brand memberships) refreshes the entity's
-- rows here in the same transaction. Triggers, not service code: a write path added later
-- (imports, sync connectors, SQL fixes) cannot forget to reindex.

-- Text-search configuration of a locale (language part of the tag); unknown languages get
-- 'simple' (no stemming, no stop words), which still matches whole words and prefixes.
CREATE FUNCTION "search_regconfig"(p_locale text) RETURNS regconfig LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE lower(split_part(replace(p_locale, '_', '-'), '-', 1))
    WHEN 'en' THEN 'english' WHEN 'de' THEN 'german' WHEN 'fr' THEN 'french' WHEN 'es' THEN 'spanish'
    WHEN 'it' THEN 'italian' WHEN 'nl' THEN 'dutch' WHEN 'pt' THEN 'portuguese' WHEN 'sv' THEN 'swedish'
    WHEN 'da' THEN 'danish' WHEN 'fi' THEN 'finnish' WHEN 'no' THEN 'norwegian' WHEN 'nb' THEN 'norwegian'
    WHEN 'ru' THEN 'russian' WHEN 'tr' THEN 'turkish' WHEN 'hu' THEN 'hungarian' WHEN 'ro' THEN 'romanian'
    ELSE 'simple' END)::regconfig
$$;

-- Rebuilds the search rows of the given entities: one row per locale that has attributes, plus
-- 'en' always (so every entity is reachable by filters); rows of deleted entities or removed
-- locales go. Upserts, so concurrent refreshes of one entity never collide on the key.
CREATE FUNCTION "search_refresh_entities"(p_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_ids IS NULL OR cardinality(p_ids) = 0 THEN RETURN; END IF;
  DELETE FROM "search_documents" s
  WHERE s."entity_id" = ANY (p_ids)
    AND (NOT EXISTS (SELECT 1 FROM "catalog_entities" e WHERE e."id" = s."entity_id")
      OR (s."locale" <> 'en' AND NOT EXISTS (
        SELECT 1 FROM "catalog_attributes" a WHERE a."entity_id" = s."entity_id" AND a."locale" = s."locale")));
  INSERT INTO "search_documents" AS s ("entity_id", "locale", "organization_id", "type", "status", "title", "document",
    "attrs", "category_ids", "brand_ids", "entity_created_at")
  SELECT e."id", l."locale", e."organization_id", e."type", e."status", coalesce(a."title", ''),
    setweight(to_tsvector(search_regconfig(l."locale"), coalesce(a."title", '')), 'A')
      || setweight(to_tsvector(search_regconfig(l."locale"), concat_ws(' ', a."seo_title", a."description", a."seo_description")), 'B')
      || setweight(to_tsvector(search_regconfig(l."locale"), coalesce(f."words", '')), 'C'),
    coalesce(f."attrs", '{}'::jsonb), coalesce(c."ids", '{}'), coalesce(b."ids", '{}'), e."created_at"
  FROM "catalog_entities" e
  CROSS JOIN LATERAL (
    SELECT "locale" FROM "catalog_attributes" WHERE "entity_id" = e."id" UNION SELECT 'en'
  ) l
  LEFT JOIN "catalog_attributes" a ON a."entity_id" = e."id" AND a."locale" = l."locale"
  LEFT JOIN LATERAL (
    SELECT jsonb_object_agg(g."field_name", g."vals") AS "attrs", string_agg(g."words", ' ') AS "words"
    FROM (
      SELECT cf."field_name", jsonb_agg(DISTINCT v."val") AS "vals", string_agg(v."val", ' ') AS "words"
      FROM "catalog_custom_fields" cf
      JOIN "catalog_field_definitions" d ON d."organization_id" = cf."organization_id" AND d."entity_type" = e."type"
        AND d."name" = cf."field_name" AND d."filterable" AND d."archived_at" IS NULL
      CROSS JOIN LATERAL (
        SELECT x #>> '{}' AS "val"
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(cf."value") = 'array' THEN cf."value" ELSE jsonb_build_array(cf."value") END) x
      ) v
      WHERE cf."entity_id" = e."id" AND cf."status" = 'approved' AND cf."locale" = 'en' AND v."val" IS NOT NULL
      GROUP BY cf."field_name"
    ) g
  ) f ON true
  LEFT JOIN LATERAL (SELECT array_agg("category_id") AS "ids" FROM "catalog_entity_categories" WHERE "entity_id" = e."id") c ON true
  LEFT JOIN LATERAL (SELECT array_agg("brand_id") AS "ids" FROM "catalog_entity_brands" WHERE "entity_id" = e."id") b ON true
  WHERE e."id" = ANY (p_ids)
  ON CONFLICT ("entity_id", "locale") DO UPDATE SET
    "organization_id" = excluded."organization_id", "type" = excluded."type", "status" = excluded."status",
    "title" = excluded."title", "document" = excluded."document", "attrs" = excluded."attrs",
    "category_ids" = excluded."category_ids", "brand_ids" = excluded."brand_ids",
    "entity_created_at" = excluded."entity_created_at";
END;
$$;

-- Statement-level triggers with transition tables: a createMany of 100 rows refreshes once.
-- TG_ARGV[0] names the column holding the entity id.
CREATE FUNCTION "search_refresh_new_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT search_refresh_entities(array_agg(DISTINCT %I)) FROM new_rows', TG_ARGV[0]);
  RETURN NULL;
END;
$$;

CREATE FUNCTION "search_refresh_old_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT search_refresh_entities(array_agg(DISTINCT %I)) FROM old_rows', TG_ARGV[0]);
  RETURN NULL;
END;
$$;

CREATE FUNCTION "search_refresh_changed_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT search_refresh_entities(array_agg(DISTINCT id)) FROM (SELECT %1$I AS id FROM new_rows UNION SELECT %1$I FROM old_rows) t', TG_ARGV[0]);
  RETURN NULL;
END;
$$;

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('catalog_entities', 'id'), ('catalog_attributes', 'entity_id'), ('catalog_custom_fields', 'entity_id'),
    ('catalog_entity_categories', 'entity_id'), ('catalog_entity_brands', 'entity_id')) AS v(tbl, col)
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_refresh_new_rows(%L)', t.tbl || '_search_insert', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_refresh_changed_rows(%L)', t.tbl || '_search_update', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_refresh_old_rows(%L)', t.tbl || '_search_delete', t.tbl, t.col);
  END LOOP;
END;
$$;

-- A definition becoming (un)filterable or (un)archived changes what its values contribute.
CREATE FUNCTION "search_refresh_field_definition"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."filterable" IS NOT DISTINCT FROM OLD."filterable"
     AND NEW."archived_at" IS NOT DISTINCT FROM OLD."archived_at" AND NEW."name" = OLD."name" THEN
    RETURN NULL;
  END IF;
  PERFORM search_refresh_entities(array_agg(DISTINCT cf."entity_id"))
  FROM "catalog_custom_fields" cf JOIN "catalog_entities" e ON e."id" = cf."entity_id"
  WHERE cf."organization_id" = NEW."organization_id" AND cf."field_name" IN (NEW."name", OLD."name") AND e."type" = NEW."entity_type";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "catalog_field_definitions_search" AFTER INSERT OR UPDATE ON "catalog_field_definitions"
  FOR EACH ROW EXECUTE FUNCTION search_refresh_field_definition();

-- Entities that exist before this migration.
SELECT search_refresh_entities(array_agg("id")) FROM "catalog_entities";
