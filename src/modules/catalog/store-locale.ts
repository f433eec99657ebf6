// The store's default locale for one request (settings general.locale, else en): what
// CatalogEntity.title and description show when no locale is asked (localized.ts). The
// attributes batch (include.ts) reads it in the same statement and hands it here, so a page's
// titles cost no statement of their own; it is read alone only when nothing loaded attributes.
import type { RequestContext } from '../../context.js';
import { queryRows } from '../../db/raw.js';
import { Prisma } from '../../generated/prisma/client.js';
import { batchLoader } from '../../graphql/loaders.js';
import { DEFAULT_LOCALE, type CatalogCtx } from './shared.js';

type Ctx = CatalogCtx & Pick<RequestContext, 'loaders'>;

const LOADER = 'settings.generalLocale';

/** A settings value as the locale it names: a string, else the default. */
function localeFrom(value: unknown): string {
  return typeof value === 'string' ? value : DEFAULT_LOCALE;
}

function loader(ctx: Ctx) {
  return batchLoader<string>(
    ctx,
    LOADER,
    async (keys) => {
      // Raw SQL on the pool (db/raw.ts), as the settings read itself: Prisma's per-statement work is most of a read this small.
      const [row] = await queryRows<{ values: { locale?: unknown } | null }>(
        ctx.db,
        Prisma.sql`select "values" from settings where organization_id = ${ctx.organization.id}::uuid and "group" = 'general'`,
      );
      return new Map(keys.map((key) => [key, localeFrom(row?.values?.locale)]));
    },
    () => DEFAULT_LOCALE,
  );
}

export function storeLocale(ctx: Ctx): Promise<string> {
  return loader(ctx).load('org');
}

/**
 * SQL for a column holding `settings.general.locale` (null when unset or not a string), to read
 * beside other rows of the organization; its value goes to knowStoreLocale.
 */
export function storeLocaleColumn(organizationId: string): Prisma.Sql {
  return Prisma.sql`(select case when jsonb_typeof(s."values" -> 'locale') = 'string' then s."values" ->> 'locale' end
    from settings s where s.organization_id = ${organizationId}::uuid and s."group" = 'general')`;
}

/** The request learns the store's locale from a read that carried storeLocaleColumn (no-op without loaders). */
export function knowStoreLocale(ctx: CatalogCtx & Partial<Pick<RequestContext, 'loaders'>>, value: unknown): void {
  if (ctx.loaders) loader(ctx as Ctx).prime('org', localeFrom(value));
}
