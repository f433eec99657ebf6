// CatalogEntity.title(locale) and description(locale): what a storefront shows, without
// filtering `attributes` by hand. Batched: read from the response level's `attributes` batch
// (every locale of every entity of the level in one statement, shared with the `attributes`
// field when both are selected), which also carries the store's default locale
// (store-locale.ts): no statement of their own, whatever the page size. Graph-only: REST embeds
// attributes through include=attributes.
import type { RequestContext } from '../../context.js';
import { validationFailed } from '../../errors.js';
import { builder } from '../../graphql/builder.js';
import { graphOnly } from '../../graphql/loaders.js';
import { loadIncluded } from './include.js';
import { localeSchema, type CatalogCtx } from './shared.js';
import { storeLocale } from './store-locale.js';
import { CatalogEntityRef } from './types.js';
import type { AttributesView } from './views.js';

type Ctx = CatalogCtx & Pick<RequestContext, 'loaders'>;
type Texts = Pick<AttributesView, 'title' | 'description'>;

/**
 * Title or description of an entity in a locale (default the store's), from the `attributes` batch
 * of its response level. Promise chains rather than async functions: a card asks this twice per
 * entity of a page.
 */
function text(ctx: Ctx, entityId: string, requested: string | null | undefined, which: keyof Texts): Promise<string | null> {
  const pick = (locale: string) => loadIncluded<AttributesView[]>(ctx, 'attributes', entityId).then((rows) => rows.find((row) => row.locale === locale)?.[which] ?? null);
  if (requested === null || requested === undefined) {
    // The rows first: their batch also tells the store's locale (store-locale.ts), and an entity
    // with none has no title in any locale.
    return loadIncluded<AttributesView[]>(ctx, 'attributes', entityId).then((rows) =>
      rows.length ? storeLocale(ctx).then((locale) => rows.find((row) => row.locale === locale)?.[which] ?? null) : null,
    );
  }
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
