// CatalogEntity.title(locale) and description(locale): what a storefront shows, without
// filtering `attributes` by hand. Batched: every entity of a response asking for the same
// locale is one statement (plus one settings read per request for the store's default locale),
// whatever the page size. Graph-only: REST embeds attributes through include=attributes.
import type { RequestContext } from '../../context.js';
import { validationFailed } from '../../errors.js';
import { builder } from '../../graphql/builder.js';
import { batchLoader, graphOnly } from '../../graphql/loaders.js';
import { DEFAULT_LOCALE, localeSchema } from './shared.js';
import { CatalogEntityRef } from './types.js';

type Ctx = Pick<RequestContext, 'db' | 'organization' | 'loaders'>;
interface Texts {
  title: string | null;
  description: string | null;
}

/** The store's default locale: settings general.locale, else en. One read per request. */
function defaultLocale(ctx: Ctx): Promise<string> {
  return batchLoader<string>(
    ctx,
    'settings.generalLocale',
    async (keys) => {
      const row = await ctx.db.setting.findFirst({ where: { organizationId: ctx.organization.id, group: 'general' }, select: { values: true } });
      const locale = (row?.values as { locale?: unknown } | null)?.locale;
      return new Map(keys.map((key) => [key, typeof locale === 'string' ? locale : DEFAULT_LOCALE]));
    },
    () => DEFAULT_LOCALE,
  ).load('org');
}

/** Title and description of entities in locales; one statement per batch of (entity, locale) keys. */
function loadTexts(ctx: Ctx, entityId: string, locale: string): Promise<Texts | null> {
  return batchLoader<Texts | null>(
    ctx,
    'catalog.textsByEntityLocale',
    async (keys) => {
      const byLocale = new Map<string, string[]>();
      for (const key of keys) {
        const [loc, id] = key.split('\u0000') as [string, string];
        byLocale.set(loc, [...(byLocale.get(loc) ?? []), id]);
      }
      const rows = await ctx.db.catalogAttributes.findMany({
        where: { organizationId: ctx.organization.id, OR: [...byLocale].map(([loc, ids]) => ({ locale: loc, entityId: { in: ids } })) },
        select: { entityId: true, locale: true, title: true, description: true },
      });
      return new Map(rows.map((row) => [`${row.locale}\u0000${row.entityId}`, { title: row.title, description: row.description }]));
    },
    () => null,
  ).load(`${locale}\u0000${entityId}`);
}

async function text(ctx: Ctx, entityId: string, requested: string | null | undefined, which: keyof Texts): Promise<string | null> {
  let locale: string;
  if (requested === null || requested === undefined) locale = await defaultLocale(ctx);
  else {
    const parsed = localeSchema.safeParse(requested);
    if (!parsed.success) throw validationFailed([{ field: 'locale', message: parsed.error.issues[0]?.message ?? 'invalid locale' }]);
    locale = parsed.data;
  }
  return (await loadTexts(ctx, entityId, locale))?.[which] ?? null;
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
