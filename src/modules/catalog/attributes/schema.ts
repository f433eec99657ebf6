// Localized attributes: PUT and GET /catalog/entities/:id/attributes/:locale.
import { z } from 'zod';
import { defineOperation } from '../../../graphql/operation.js';
import { getAttributes, setAttributes } from './service.js';
import { PERMISSION, localeSchema } from '../shared.js';
import { CatalogAttributesRef } from '../types.js';

const id = z.guid().describe('Entity UUID');
const locale = localeSchema.describe('BCP 47 locale, e.g. en or de-DE (the default locale is en)');
const text = (max: number, what: string) => z.string().max(max).nullable().optional().describe(`${what} (at most ${max} characters)`);

defineOperation({
  name: 'catalogEntityAttributes',
  kind: 'query',
  summary: 'Localized attributes of an entity for one locale',
  description: '404 when the locale was never set. Same visibility as the entity itself.',
  rest: { method: 'GET', path: '/catalog/entities/:id/attributes/:locale' },
  access: { permission: PERMISSION.read },
  input: { id, locale },
  output: CatalogAttributesRef,
  resolve: (ctx, input) => getAttributes(ctx, input.id, input.locale),
});

defineOperation({
  name: 'catalogEntityAttributesSet',
  kind: 'mutation',
  summary: 'Set the localized attributes of an entity for one locale',
  description: "Replaces the locale's attributes: fields left out become null. Emits catalog.update (changes: attributes.<locale>).",
  rest: { method: 'PUT', path: '/catalog/entities/:id/attributes/:locale' },
  access: { permission: PERMISSION.update },
  input: {
    id,
    locale,
    title: text(500, 'Title'),
    description: text(50_000, 'Description, plain text or HTML'),
    seoTitle: text(200, 'Title for search engines'),
    seoDescription: text(1000, 'Meta description for search engines'),
  },
  output: CatalogAttributesRef,
  resolve: (ctx, input) => setAttributes(ctx, input.id, input.locale, input),
});
