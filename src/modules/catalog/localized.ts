// CatalogEntity.title(locale) and description(locale): what a storefront shows, without
// filtering `attributes` by hand. Batched: read from the response level's `attributes` batch
// (every locale of every entity of the level in one statement, shared with the `attributes`
// field when both are selected), plus one settings read per request for the store's default
// locale, whatever the page size. Graph-only: REST embeds attributes through include=attributes.
import type { RequestContext } from '../../context.js';
import { queryRows } from '../../db/raw.js';
import { validationFailed } from '../../errors.js';
import { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../../graphql/builder.js';
import { batchLoader, graphOnly } from '../../graphql/loaders.js';
import { loadIncluded } from './include.js';
import { DEFAULT_LOCALE, localeSchema, type CatalogCtx } from './shared.js';
import { CatalogEntityRef } from './types.js';
import type { AttributesView } from './views.js';

type Ctx = CatalogCtx & Pick<RequestContext, 'loaders'>;
type Texts = Pick<AttributesView, 'title' | 'description'>;

/** The store's default locale: settings general.locale, else en. One read per request. */
function defaultLocale(ctx: Ctx): Promise<string> {
  return batchLoader<string>(
    ctx,
    'settings.generalLocale',
    async (keys) => {
      // Raw SQL on the pool (db/raw.ts), as the settings read itself: Prisma's per-statement work is most of a read this small.
      const [row] = await queryRows<{ values: { locale?: unknown } | null }>(
        ctx.db,
        Prisma.sql`select "values" from settings where organization_id = ${ctx.organization.id}::uuid and "group" = 'general'`,
      );
      const locale = row?.values?.locale;
      return new Map(keys.map((key) => [key, typeof locale === 'string' ? locale : DEFAULT_LOCALE]));
    },
    () => DEFAULT_LOCALE,
  ).load('org');
}

/**
 * Title or description of an entity in a locale (default the store's), from the `attributes` batch
 * of its response level. Promise chains rather than async functions: a card asks this twice per
 * entity of a page.
 */
function text(ctx: Ctx, entityId: string, requested: string | null | undefined, which: keyof Texts): Promise<string | null> {
  const pick = (locale: string) => loadIncluded<AttributesView[]>(ctx, 'attributes', entityId).then((rows) => rows.find((row) => row.locale === locale)?.[which] ?? null);
  if (requested === null || requested === undefined) return defaultLocale(ctx).then(pick);
  const parsed = localeSchema.safeParse(requested);
  if (!parsed.success) return Promise.reject(validationFailed([{ field: 'locale', message: parsed.error.issues[0]?.message ?? 'invalid locale' }]));
  return pick(parsed.data);
}

const localeArg = "BCP 47 locale, e.g. en or de-DE; default the store's (settings general.locale, else en)";

builder.objectFields(CatalogEntityRef, (t) => ({
  title: t.string({
    nullable: true,
    description: 'The title in a locale (null when the entity has none there)',
    args: { locale: t.arg.string({ description: localeArg }) },
    resolve: (entity, args, ctx) => text(ctx, entity.id, args.locale, 'title'),
  }),
  description: t.string({
    nullable: true,
    description: 'The description in a locale (null when the entity has none there)',
    args: { locale: t.arg.string({ description: localeArg }) },
    resolve: (entity, args, ctx) => text(ctx, entity.id, args.locale, 'description'),
  }),
}));
graphOnly('CatalogEntity', 'title', 'description');
