// Shopify's product CSV (Admin → Products → Export) as a second import format, mapped to the
// native rows (format.ts):
//
//   Handle                          → slug (rows of a product share it)
//   Title, Body (HTML)              → title:<locale>, description:<locale> (locale: the import's `locale`, default en)
//   SEO Title, SEO Description      → seo_title:<locale>, seo_description:<locale>
//   Vendor                          → brand (slug from the name; created with that name when missing)
//   Type                            → a category (slug from the name; created when missing)
//   Status (active|draft|archived)  → status; without Status, Published TRUE → active, FALSE → draft
//   Option1..3 Name / Value         → option:<name lowercased> (names come from the product's first row;
//                                     Shopify's "Title: Default Title" means no options)
//   Variant SKU                     → sku; an empty SKU becomes <handle>-<option values> (stable, so a
//                                     re-import finds the same variant)
//   Variant Price                   → price:<currency> (decimal major units → minor units by the
//                                     currency's digits; currency: the import's `currency`, default USD)
//   Variant Inventory Qty           → stock:<warehouse> (the import's `warehouse` code, else the default warehouse)
//   Image Src                       → images (every row's image, in order)
// Other columns (Tags, Variant Grams, Compare At Price, Gift Card, metafields...) are ignored.
import { emptyProduct, isSlug, slugify, type ParsedRow, type RowError } from './format.js';

export interface ShopifyOptions {
  locale: string;
  currency: string;
  /** Warehouse code stock goes to. */
  warehouse: string | null;
}

const REQUIRED = ['Handle'];

export function checkShopifyHeader(header: string[]): string[] {
  return REQUIRED.filter((name) => !header.includes(name)).map((name) => `the ${name} column is required in a Shopify product CSV`);
}

/** Minor units of a decimal amount in major units ("19.99" → 1999 for EUR, "500" → 500 for JPY). */
export function toMinorUnits(value: string, currency: string): number | null {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const match = /^(\d{1,13})(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(digits, '0');
  if (fraction.length > digits && /[1-9]/.test(fraction.slice(digits))) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.slice(0, digits) || '0');
}

/** Reads one product's rows in order: option names come from its first row. */
export class ShopifyMapper {
  private handle = '';
  private optionNames: string[] = [];

  constructor(private readonly options: ShopifyOptions) {}

  map(record: Record<string, string>, row: number): ParsedRow | RowError[] {
    const cell = (name: string) => (record[name] ?? '').trim();
    const errors: RowError[] = [];
    const handle = cell('Handle');
    if (!handle) return [{ row, column: 'Handle', message: 'is required' }];
    if (!isSlug(handle)) return [{ row, column: 'Handle', message: 'must be lowercase letters and digits in hyphen-separated words' }];
    if (handle !== this.handle) {
      this.handle = handle;
      this.optionNames = [1, 2, 3].map((n) => cell(`Option${n} Name`).toLowerCase());
    }
    const { locale, currency } = this.options;
    const product = emptyProduct();
    const texts: Record<string, string> = {};
    if (cell('Title')) texts.title = cell('Title');
    if (cell('Body (HTML)')) texts.description = cell('Body (HTML)');
    if (cell('SEO Title')) texts.seoTitle = cell('SEO Title');
    if (cell('SEO Description')) texts.seoDescription = cell('SEO Description');
    if (Object.keys(texts).length) product.attributes.set(locale, texts);
    const vendor = cell('Vendor');
    if (vendor) {
      const slug = slugify(vendor);
      if (!slug) errors.push({ row, column: 'Vendor', message: 'has no letters or digits to make a brand slug from' });
      else product.brand = { slug, name: vendor };
    }
    const type = cell('Type');
    if (type) {
      const slug = slugify(type);
      if (!slug) errors.push({ row, column: 'Type', message: 'has no letters or digits to make a category slug from' });
      else product.categories = [{ slug, name: type }];
    }
    const status = cell('Status').toLowerCase();
    if (status) {
      if (!['active', 'draft', 'archived'].includes(status)) errors.push({ row, column: 'Status', message: 'must be active, draft or archived' });
      else product.status = status as 'active';
    } else if (cell('Published')) {
      product.status = cell('Published').toLowerCase() === 'true' ? 'active' : 'draft';
    }
    if (cell('Image Src')) {
      try {
        const url = new URL(cell('Image Src'));
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
        product.images.push(url.toString());
      } catch {
        errors.push({ row, column: 'Image Src', message: 'is not an http(s) URL' });
      }
    }
    const values = [1, 2, 3].map((n) => cell(`Option${n} Value`));
    const isVariant = values.some(Boolean) || cell('Variant SKU') || cell('Variant Price') || cell('Variant Inventory Qty');
    if (!isVariant) return errors.length ? errors : { row, slug: handle, product, variant: null };
    const options: Array<[string, string]> = [];
    values.forEach((value, i) => {
      const name = this.optionNames[i];
      if (!value || (name === 'title' && value === 'Default Title')) return;
      if (!name) errors.push({ row, column: `Option${i + 1} Value`, message: `has no Option${i + 1} Name on the product's first row` });
      else if (!/^[a-z][a-z0-9_-]{0,63}$/.test(name)) errors.push({ row, column: `Option${i + 1} Name`, message: 'must start with a letter and hold letters, digits, _ or -' });
      else options.push([name, value]);
    });
    const prices = new Map<string, number>();
    if (cell('Variant Price')) {
      const amount = toMinorUnits(cell('Variant Price'), currency);
      if (amount === null) errors.push({ row, column: 'Variant Price', message: `must be a decimal amount in ${currency} (e.g. 19.99)` });
      else prices.set(currency, amount);
    }
    const stock = new Map<string, number>();
    if (cell('Variant Inventory Qty')) {
      const quantity = Number(cell('Variant Inventory Qty'));
      if (!Number.isSafeInteger(quantity)) errors.push({ row, column: 'Variant Inventory Qty', message: 'must be a whole number' });
      else if (!this.options.warehouse) errors.push({ row, column: 'Variant Inventory Qty', message: 'no warehouse: pass `warehouse` or set a default warehouse' });
      // Shopify allows overselling into negative quantities; on hand here starts at zero.
      else stock.set(this.options.warehouse, Math.max(0, quantity));
    }
    if (errors.length) return errors;
    options.sort((a, b) => a[0].localeCompare(b[0]));
    const sku = cell('Variant SKU') || [handle, ...options.map(([, v]) => slugify(v))].filter(Boolean).join('-');
    return { row, slug: handle, product, variant: { sku, options, prices, stock } };
  }
}
