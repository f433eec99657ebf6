// The catalog CSV format (import and export share it, so an export re-imports to the same
// catalog). One row per variant, or one row for a product without variants; every row names its
// product by `slug`, and a product's rows follow each other. Columns (header names, any order):
//
//   slug                      product key (required on every row)
//   type, status              product type (default product) and status (draft on create)
//   title:<locale>            localized texts, e.g. title:en, description:de,
//   description:<locale>        seo_title:en, seo_description:en
//   seo_title:<locale>, seo_description:<locale>
//   categories                category slugs separated by |  (missing ones are created)
//   brand                     brand slug (created when missing)
//   images                    image URLs separated by |, fetched through the guarded client
//   sku                       variant key (unique in the organization); empty = the product row
//   variant_title             the variant's title
//   option:<name>             the variant's value of an option axis, e.g. option:size = M
//   price:<CURRENCY>          price in minor units (integer cents: 1999 = 19.99 EUR), e.g. price:EUR;
//                             on a row without sku: the product-level price
//   stock:<warehouse code>    on hand in that warehouse (an integer ≥ 0); without sku: product level
//
// An empty cell changes nothing (import never clears a value); product-level cells may be
// repeated on a product's variant rows but must then agree.
export const LOCALIZED = { title: 'title', description: 'description', seo_title: 'seoTitle', seo_description: 'seoDescription' } as const;
export type LocalizedField = (typeof LOCALIZED)[keyof typeof LOCALIZED];
export const STATUSES = ['draft', 'active', 'archived', 'discontinued'] as const;
export const LIST_SEPARATOR = '|';

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LOCALE_RE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;
const CURRENCY_RE = /^[A-Z]{3}$/;
const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const CODE_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const MAX_TEXT = 10_000;
const MAX_AMOUNT = 9_000_000_000_000;

export type Column =
  | { kind: 'slug' | 'type' | 'status' | 'categories' | 'brand' | 'images' | 'sku' | 'variant_title' }
  | { kind: 'localized'; field: LocalizedField; locale: string }
  | { kind: 'option'; name: string }
  | { kind: 'price'; currency: string }
  | { kind: 'stock'; warehouse: string };

export interface RowError {
  row: number;
  column: string;
  message: string;
}

export interface Ref {
  slug: string;
  name: string;
}

export interface ProductFields {
  type?: string;
  status?: (typeof STATUSES)[number];
  /** locale → field → text */
  attributes: Map<string, Partial<Record<LocalizedField, string>>>;
  categories?: Ref[];
  brand?: Ref;
  images: string[];
  prices: Map<string, number>;
  stock: Map<string, number>;
}

export interface VariantFields {
  sku: string;
  title?: string;
  options: Array<[name: string, value: string]>;
  prices: Map<string, number>;
  stock: Map<string, number>;
}

export interface ParsedRow {
  row: number;
  slug: string;
  product: ProductFields;
  variant: VariantFields | null;
}

export function isSlug(value: string): boolean {
  return value.length <= 200 && SLUG_RE.test(value) && !UUID_RE.test(value);
}

/** A name turned into a slug (brands and categories named by Shopify's Vendor and Type). */
export function slugify(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200)
    .replace(/-+$/, '');
}

/** Reads the header; throws a list of problems (the upload answers 422 with them). */
export function parseHeader(header: string[]): Column[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const columns = header.map((raw): Column => {
    const name = raw.trim();
    if (seen.has(name)) problems.push(`column ${name} appears twice`);
    seen.add(name);
    const [head, arg, ...rest] = name.split(':');
    if (rest.length === 0 && arg === undefined) {
      if (['slug', 'type', 'status', 'categories', 'brand', 'images', 'sku', 'variant_title'].includes(name)) return { kind: name as 'slug' };
    } else if (rest.length === 0 && arg) {
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      if (head! in LOCALIZED) {
        if (!LOCALE_RE.test(arg)) problems.push(`column ${name}: ${arg} is not a locale (e.g. en, de-CH)`);
        return { kind: 'localized', field: LOCALIZED[head as keyof typeof LOCALIZED], locale: arg };
      }
      if (head === 'option') {
        if (!NAME_RE.test(arg)) problems.push(`column ${name}: option names start with a letter and hold letters, digits, _ or -`);
        return { kind: 'option', name: arg };
      }
      if (head === 'price') {
        if (!CURRENCY_RE.test(arg)) problems.push(`column ${name}: ${arg} is not an ISO 4217 currency code in capitals`);
        return { kind: 'price', currency: arg };
      }
      if (head === 'stock') {
        if (!CODE_RE.test(arg)) problems.push(`column ${name}: ${arg} is not a warehouse code`);
        return { kind: 'stock', warehouse: arg };
      }
    }
    problems.push(`unknown column ${name}`);
    return { kind: 'slug' };
  });
  if (!columns.some((c) => c.kind === 'slug')) problems.push('the slug column is required');
  if (problems.length) throw new HeaderError(problems);
  return columns;
}

export class HeaderError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

function integer(value: string, min: number, max: number): number | null {
  if (!/^-?\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

function refs(value: string): Ref[] | string {
  const slugs = value
    .split(LIST_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = slugs.find((s) => !isSlug(s));
  if (bad) return `${bad} is not a slug (lowercase words joined by -)`;
  return [...new Set(slugs)].map((slug) => ({ slug, name: slug }));
}

function url(value: string): boolean {
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

export function emptyProduct(): ProductFields {
  return { attributes: new Map(), images: [], prices: new Map(), stock: new Map() };
}

/** One native record → its row, or the cell errors that refuse it. */
export function parseRecord(columns: Column[], header: string[], record: string[], row: number): ParsedRow | RowError[] {
  const errors: RowError[] = [];
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const fail = (index: number, message: string) => errors.push({ row, column: header[index]!.trim(), message });
  const product = emptyProduct();
  let slug = '';
  let sku = '';
  let variantTitle: string | undefined;
  const options: Array<[string, string]> = [];
  const prices = new Map<string, number>();
  const stock = new Map<string, number>();
  columns.forEach((column, index) => {
    const value = (record[index] ?? '').trim();
    if (value.includes('\u0000')) return fail(index, 'contains a NUL character');
    if (column.kind === 'slug') {
      if (!value) return fail(index, 'is required');
      if (!isSlug(value)) return fail(index, 'must be lowercase letters and digits in hyphen-separated words, e.g. blue-t-shirt');
      slug = value;
      return;
    }
    if (!value) return;
    if (value.length > MAX_TEXT) return fail(index, `at most ${MAX_TEXT} characters`);
    // biome-ignore lint/nursery/useExhaustiveSwitchCases: slug returned above; TypeScript narrows it out, Biome does not
    switch (column.kind) {
      case 'type':
        if (!NAME_RE.test(value)) return fail(index, 'must start with a letter and hold letters, digits, _ or - (at most 64)');
        product.type = value;
        return;
      case 'status':
        if (!(STATUSES as readonly string[]).includes(value)) return fail(index, `must be one of ${STATUSES.join(', ')}`);
        product.status = value as ProductFields['status'];
        return;
      case 'localized': {
        const texts = product.attributes.get(column.locale) ?? {};
        texts[column.field] = value;
        product.attributes.set(column.locale, texts);
        return;
      }
      case 'categories': {
        const parsed = refs(value);
        if (typeof parsed === 'string') return fail(index, parsed);
        product.categories = parsed;
        return;
      }
      case 'brand':
        if (!isSlug(value)) return fail(index, 'must be a brand slug');
        product.brand = { slug: value, name: value };
        return;
      case 'images': {
        const urls = value
          .split(LIST_SEPARATOR)
          .map((s) => s.trim())
          .filter(Boolean);
        const bad = urls.find((u) => !url(u));
        if (bad) return fail(index, `${bad} is not an http(s) URL`);
        product.images = [...new Set(urls)];
        return;
      }
      case 'sku':
        if (value.length > 200) return fail(index, 'at most 200 characters');
        sku = value;
        return;
      case 'variant_title':
        variantTitle = value;
        return;
      case 'option':
        if (value.length > 200) return fail(index, 'at most 200 characters');
        options.push([column.name, value]);
        return;
      case 'price': {
        const amount = integer(value, 0, MAX_AMOUNT);
        if (amount === null) return fail(index, 'must be a whole number of minor units ≥ 0 (1999 = 19.99)');
        prices.set(column.currency, amount);
        return;
      }
      case 'stock': {
        const quantity = integer(value, 0, 1_000_000_000);
        if (quantity === null) return fail(index, 'must be a whole number ≥ 0');
        stock.set(column.warehouse, quantity);
        return;
      }
    }
  });
  if (!sku && (options.length || variantTitle)) errors.push({ row, column: 'sku', message: 'is required on a row with option or variant_title values' });
  if (errors.length) return errors;
  if (!sku) {
    product.prices = prices;
    product.stock = stock;
    return { row, slug, product, variant: null };
  }
  options.sort((a, b) => a[0].localeCompare(b[0]));
  return { row, slug, product, variant: { sku, title: variantTitle, options, prices, stock } };
}

/**
 * Merges a row's product cells into the product's (from its earlier rows). A cell that disagrees
 * with an earlier row's is an error; images add up (Shopify lists one per row).
 */
export function mergeProduct(into: ProductFields, from: ProductFields, row: number): RowError[] {
  const errors: RowError[] = [];
  const clash = (column: string) => errors.push({ row, column, message: 'differs from an earlier row of the same product' });
  const same = <T>(a: T | undefined, b: T | undefined) => a === undefined || b === undefined || JSON.stringify(a) === JSON.stringify(b);
  if (!same(into.type, from.type)) clash('type');
  if (!same(into.status, from.status)) clash('status');
  if (
    !same(
      into.categories?.map((c) => c.slug),
      from.categories?.map((c) => c.slug),
    )
  )
    clash('categories');
  if (!same(into.brand?.slug, from.brand?.slug)) clash('brand');
  for (const [locale, texts] of from.attributes) {
    const known = into.attributes.get(locale) ?? {};
    for (const [field, text] of Object.entries(texts) as Array<[LocalizedField, string]>) {
      if (known[field] !== undefined && known[field] !== text) clash(`${field}:${locale}`);
    }
  }
  for (const [currency, amount] of from.prices) if (into.prices.has(currency) && into.prices.get(currency) !== amount) clash(`price:${currency}`);
  for (const [code, quantity] of from.stock) if (into.stock.has(code) && into.stock.get(code) !== quantity) clash(`stock:${code}`);
  if (errors.length) return errors;
  into.type ??= from.type;
  into.status ??= from.status;
  into.categories ??= from.categories;
  into.brand ??= from.brand;
  for (const [locale, texts] of from.attributes) into.attributes.set(locale, { ...into.attributes.get(locale), ...texts });
  for (const image of from.images) if (!into.images.includes(image)) into.images.push(image);
  for (const [currency, amount] of from.prices) into.prices.set(currency, amount);
  for (const [code, quantity] of from.stock) into.stock.set(code, quantity);
  return [];
}
