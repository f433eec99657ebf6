// `commerce seed`: a small, browsable demo catalog (categories, brands, custom-field definitions
// and a dozen active products with attributes, options and variants). Idempotent: rows whose
// slug (or name) exists are left as they are, so running it twice changes nothing.
import type { Runtime } from '../../runtime.js';
import type { OrganizationRef } from '../../context.js';
import { setAttributes } from './attributes/service.js';
import { createEntity } from './entities/service.js';
import { createDefinition } from './custom-fields/definitions.service.js';
import { addMembership, createBrand, createCategory } from './taxonomy/service.js';
import { bulkVariants } from './variants/service.js';
import type { CatalogCtx } from './shared.js';

interface DemoProduct {
  slug: string;
  title: string;
  description: string;
  category: string;
  brand: string;
  axes: Record<string, string[]>;
  customFields: Record<string, unknown>;
}

const CATEGORIES: Array<{ slug: string; name: string; parent?: string; description: string }> = [
  { slug: 'apparel', name: 'Apparel', description: 'Clothing for every day' },
  { slug: 't-shirts', name: 'T-shirts', parent: 'apparel', description: 'Organic cotton tees' },
  { slug: 'hoodies', name: 'Hoodies', parent: 'apparel', description: 'Warm layers' },
  { slug: 'accessories', name: 'Accessories', description: 'Bags, hats and small things' },
  { slug: 'bags', name: 'Bags', parent: 'accessories', description: 'Totes and backpacks' },
  { slug: 'hats', name: 'Hats', parent: 'accessories', description: 'Caps and beanies' },
  { slug: 'home', name: 'Home', description: 'Things for the kitchen and the desk' },
];

const BRANDS = [
  { slug: 'northwind-outfitters', name: 'Northwind Outfitters', description: 'Outdoor basics since 1998', websiteUrl: 'https://example.com/northwind' },
  { slug: 'acme-goods', name: 'Acme Goods', description: 'Useful objects, honestly made', websiteUrl: 'https://example.com/acme' },
  { slug: 'lumen-studio', name: 'Lumen Studio', description: 'Small-batch ceramics and prints', websiteUrl: 'https://example.com/lumen' },
];

const SIZES = ['S', 'M', 'L', 'XL'];

const PRODUCTS: DemoProduct[] = [
  {
    slug: 'classic-crew-tee',
    title: 'Classic crew tee',
    description: 'A heavyweight organic cotton t-shirt with a relaxed fit.',
    category: 't-shirts',
    brand: 'northwind-outfitters',
    axes: { size: SIZES, color: ['white', 'black', 'navy'] },
    customFields: { material: '100% organic cotton', fit: 'relaxed' },
  },
  {
    slug: 'v-neck-tee',
    title: 'V-neck tee',
    description: 'A lightweight v-neck for warm days.',
    category: 't-shirts',
    brand: 'northwind-outfitters',
    axes: { size: SIZES, color: ['heather-grey', 'olive'] },
    customFields: { material: 'Cotton and modal', fit: 'slim' },
  },
  {
    slug: 'pocket-tee',
    title: 'Pocket tee',
    description: 'Everyday tee with a chest pocket.',
    category: 't-shirts',
    brand: 'acme-goods',
    axes: { size: SIZES, color: ['sand', 'rust'] },
    customFields: { material: '100% cotton', fit: 'regular' },
  },
  {
    slug: 'trail-hoodie',
    title: 'Trail hoodie',
    description: 'Brushed fleece hoodie with a double-lined hood.',
    category: 'hoodies',
    brand: 'northwind-outfitters',
    axes: { size: SIZES, color: ['forest', 'charcoal'] },
    customFields: { material: 'Recycled polyester fleece', fit: 'regular' },
  },
  {
    slug: 'zip-hoodie',
    title: 'Zip hoodie',
    description: 'Full-zip hoodie in loopback cotton.',
    category: 'hoodies',
    brand: 'acme-goods',
    axes: { size: SIZES, color: ['black'] },
    customFields: { material: 'Loopback cotton', fit: 'relaxed' },
  },
  {
    slug: 'canvas-tote',
    title: 'Canvas tote',
    description: 'A sturdy tote that carries a week of groceries.',
    category: 'bags',
    brand: 'acme-goods',
    axes: { color: ['natural', 'black'] },
    customFields: { material: '12 oz canvas' },
  },
  {
    slug: 'daypack-20l',
    title: 'Daypack 20 L',
    description: 'Water-resistant daypack with a laptop sleeve.',
    category: 'bags',
    brand: 'northwind-outfitters',
    axes: { color: ['slate', 'ochre'] },
    customFields: { material: 'Recycled nylon' },
  },
  {
    slug: 'wool-beanie',
    title: 'Wool beanie',
    description: 'Ribbed merino beanie.',
    category: 'hats',
    brand: 'northwind-outfitters',
    axes: { color: ['grey', 'red', 'navy'] },
    customFields: { material: 'Merino wool' },
  },
  {
    slug: 'six-panel-cap',
    title: 'Six-panel cap',
    description: 'Unstructured cotton cap with a brass buckle.',
    category: 'hats',
    brand: 'acme-goods',
    axes: { color: ['khaki', 'black'] },
    customFields: { material: 'Washed cotton twill' },
  },
  {
    slug: 'stoneware-mug',
    title: 'Stoneware mug',
    description: 'Hand-glazed 350 ml mug; every one is a little different.',
    category: 'home',
    brand: 'lumen-studio',
    axes: { glaze: ['speckled', 'celadon', 'midnight'] },
    customFields: { material: 'Stoneware' },
  },
  {
    slug: 'pour-over-set',
    title: 'Pour-over set',
    description: 'Ceramic dripper with a matching carafe.',
    category: 'home',
    brand: 'lumen-studio',
    axes: { glaze: ['white', 'sand'] },
    customFields: { material: 'Porcelain' },
  },
  {
    slug: 'desk-print',
    title: 'Desk print',
    description: 'Risograph print of a mountain at dawn.',
    category: 'home',
    brand: 'lumen-studio',
    axes: { size: ['A4', 'A3'] },
    customFields: { material: 'Recycled paper' },
  },
];

function seedContext(runtime: Pick<Runtime, 'db'>, organization: OrganizationRef): CatalogCtx {
  return { db: runtime.db, organization, actor: null, requestId: 'seed' };
}

export interface CatalogSeedSummary {
  categories: number;
  brands: number;
  entities: number;
}

export async function seedCatalog(runtime: Pick<Runtime, 'db' | 'services'>, organization?: OrganizationRef): Promise<CatalogSeedSummary> {
  const org = organization ?? (await runtime.services.organizations.defaultOrganization());
  const ctx = seedContext(runtime, org);
  const summary: CatalogSeedSummary = { categories: 0, brands: 0, entities: 0 };

  const definitions = await runtime.db.catalogFieldDefinition.findMany({ where: { organizationId: org.id, entityType: 'product' }, select: { name: true } });
  if (!definitions.some((d) => d.name === 'material')) {
    await createDefinition(ctx, { entityType: 'product', name: 'material', type: 'string', label: 'Material', required: false, filterable: true });
  }
  if (!definitions.some((d) => d.name === 'fit')) {
    await createDefinition(ctx, { entityType: 'product', name: 'fit', type: 'enum', enumValues: ['slim', 'regular', 'relaxed'], label: 'Fit', required: false, filterable: true });
  }

  const categoryIds = new Map<string, string>();
  for (const [index, category] of CATEGORIES.entries()) {
    const existing = await runtime.db.catalogCategory.findFirst({ where: { organizationId: org.id, slug: category.slug }, select: { id: true } });
    const id =
      existing?.id ??
      (
        await createCategory(ctx, {
          name: category.name,
          slug: category.slug,
          description: category.description,
          parentId: category.parent ? categoryIds.get(category.parent) : null,
          sortOrder: index,
        })
      ).id;
    if (!existing) summary.categories += 1;
    categoryIds.set(category.slug, id);
  }

  const brandIds = new Map<string, string>();
  for (const [index, brand] of BRANDS.entries()) {
    const existing = await runtime.db.catalogBrand.findFirst({ where: { organizationId: org.id, slug: brand.slug }, select: { id: true } });
    const id = existing?.id ?? (await createBrand(ctx, { ...brand, sortOrder: index })).id;
    if (!existing) summary.brands += 1;
    brandIds.set(brand.slug, id);
  }

  for (const product of PRODUCTS) {
    const exists = await runtime.db.catalogEntity.findFirst({ where: { organizationId: org.id, slug: product.slug }, select: { id: true } });
    if (exists) continue;
    const entity = await createEntity(ctx, { type: 'product', slug: product.slug, status: 'active', locale: 'en', metadata: { demo: true }, customFields: product.customFields });
    await setAttributes(ctx, entity.id, 'en', {
      title: product.title,
      description: product.description,
      seoTitle: `${product.title} | Demo store`,
      seoDescription: product.description,
    });
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    await addMembership(ctx, 'categories', entity.id, categoryIds.get(product.category)!);
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    await addMembership(ctx, 'brands', entity.id, brandIds.get(product.brand)!);
    await bulkVariants(ctx, entity.id, { axes: product.axes });
    summary.entities += 1;
  }
  return summary;
}
