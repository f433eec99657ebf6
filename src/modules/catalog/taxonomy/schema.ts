// Categories and brands, and entity membership in them.
import { z } from 'zod';
import { defineOperation } from '../../../graphql/operation.js';
import { pageOf } from '../../../graphql/pagination.js';
import { pageInput } from '../../../graphql/zod-args.js';
import { addMembership, createBrand, createCategory, deleteBrand, deleteCategory, listBrands, listCategories, removeMembership, updateBrand, updateCategory } from './service.js';
import { PERMISSION, jsonObject, slugSchema } from '../shared.js';
import { CatalogBrandRef, CatalogCategoryRef, CatalogEntityRef } from '../types.js';

const name = z.string().trim().min(1).max(200);
const description = z.string().max(10_000).nullable().optional();
const sortOrder = z.number().int().min(-1_000_000).max(1_000_000).optional().describe('Ascending display order, default 0');
const metadata = jsonObject.optional().describe('Free-form object');
const url = z.url().max(2000).nullable().optional();

// ── categories ──

defineOperation({
  name: 'catalogCategories',
  kind: 'query',
  summary: 'List categories',
  description: 'Ordered by sortOrder, then name. `parentId` lists the children of one category.',
  rest: { method: 'GET', path: '/catalog/categories' },
  access: { permission: PERMISSION.read },
  input: { ...pageInput(20, 100), parentId: z.guid().optional().describe('Only children of this category') },
  output: pageOf('CatalogCategory', CatalogCategoryRef),
  paginated: true,
  resolve: (ctx, input) => listCategories(ctx, input),
});

defineOperation({
  name: 'catalogCategoryCreate',
  kind: 'mutation',
  summary: 'Create a category',
  description: 'Fields: name, slug (unique per organization; a duplicate is 409), description, parentId (an existing category), sortOrder, metadata.',
  rest: { method: 'POST', path: '/catalog/categories', status: 201 },
  access: { permission: PERMISSION.create },
  input: { name, slug: slugSchema, description, parentId: z.guid().nullable().optional().describe('Parent category; omit for a root'), sortOrder, metadata },
  output: CatalogCategoryRef,
  resolve: (ctx, input) => createCategory(ctx, input),
});

defineOperation({
  name: 'catalogCategoryUpdate',
  kind: 'mutation',
  summary: 'Update a category',
  description: 'Only the keys sent change. parentId null makes it a root; a parent below the category itself is 422.',
  rest: { method: 'PATCH', path: '/catalog/categories/:categoryId' },
  access: { permission: PERMISSION.update },
  input: {
    categoryId: z.guid(),
    name: name.optional(),
    slug: slugSchema.optional(),
    description,
    parentId: z.guid().nullable().optional(),
    sortOrder,
    metadata,
  },
  output: CatalogCategoryRef,
  resolve: (ctx, { categoryId, ...input }) => updateCategory(ctx, categoryId, input),
});

defineOperation({
  name: 'catalogCategoryDelete',
  kind: 'mutation',
  summary: 'Delete a category',
  description: 'Removes its entity memberships (not the entities); its child categories become roots. Answers the deleted category.',
  rest: { method: 'DELETE', path: '/catalog/categories/:categoryId' },
  access: { permission: PERMISSION.delete },
  input: { categoryId: z.guid() },
  output: CatalogCategoryRef,
  resolve: (ctx, input) => deleteCategory(ctx, input.categoryId),
});

// ── brands ──

defineOperation({
  name: 'catalogBrands',
  kind: 'query',
  summary: 'List brands',
  description: 'Ordered by sortOrder, then name.',
  rest: { method: 'GET', path: '/catalog/brands' },
  access: { permission: PERMISSION.read },
  input: { ...pageInput(20, 100) },
  output: pageOf('CatalogBrand', CatalogBrandRef),
  paginated: true,
  resolve: (ctx, input) => listBrands(ctx, input),
});

defineOperation({
  name: 'catalogBrandCreate',
  kind: 'mutation',
  summary: 'Create a brand',
  description: 'Fields: name, slug (unique per organization; a duplicate is 409), description, logoUrl, websiteUrl, sortOrder, metadata.',
  rest: { method: 'POST', path: '/catalog/brands', status: 201 },
  access: { permission: PERMISSION.create },
  input: { name, slug: slugSchema, description, logoUrl: url, websiteUrl: url, sortOrder, metadata },
  output: CatalogBrandRef,
  resolve: (ctx, input) => createBrand(ctx, input),
});

defineOperation({
  name: 'catalogBrandUpdate',
  kind: 'mutation',
  summary: 'Update a brand',
  description: 'Only the keys sent change.',
  rest: { method: 'PATCH', path: '/catalog/brands/:brandId' },
  access: { permission: PERMISSION.update },
  input: { brandId: z.guid(), name: name.optional(), slug: slugSchema.optional(), description, logoUrl: url, websiteUrl: url, sortOrder, metadata },
  output: CatalogBrandRef,
  resolve: (ctx, { brandId, ...input }) => updateBrand(ctx, brandId, input),
});

defineOperation({
  name: 'catalogBrandDelete',
  kind: 'mutation',
  summary: 'Delete a brand',
  description: 'Removes its entity memberships (not the entities). Answers the deleted brand.',
  rest: { method: 'DELETE', path: '/catalog/brands/:brandId' },
  access: { permission: PERMISSION.delete },
  input: { brandId: z.guid() },
  output: CatalogBrandRef,
  resolve: (ctx, input) => deleteBrand(ctx, input.brandId),
});

// ── membership ──

const entityId = z.guid().describe('Entity UUID');

defineOperation({
  name: 'catalogEntityCategoryAdd',
  kind: 'mutation',
  summary: 'Add an entity to a category',
  description: 'Adding a membership that exists changes nothing. Answers the entity with its categories. Emits catalog.update (changes: categories).',
  rest: { method: 'POST', path: '/catalog/entities/:id/categories/:categoryId' },
  access: { permission: PERMISSION.update },
  input: { id: entityId, categoryId: z.guid() },
  output: CatalogEntityRef,
  resolve: (ctx, input) => addMembership(ctx, 'categories', input.id, input.categoryId),
});

defineOperation({
  name: 'catalogEntityCategoryRemove',
  kind: 'mutation',
  summary: 'Remove an entity from a category',
  description: '404 when the entity is not in the category. Answers the entity with its categories. Emits catalog.update.',
  rest: { method: 'DELETE', path: '/catalog/entities/:id/categories/:categoryId' },
  access: { permission: PERMISSION.update },
  input: { id: entityId, categoryId: z.guid() },
  output: CatalogEntityRef,
  resolve: (ctx, input) => removeMembership(ctx, 'categories', input.id, input.categoryId),
});

defineOperation({
  name: 'catalogEntityBrandAdd',
  kind: 'mutation',
  summary: 'Add an entity to a brand',
  description: 'Adding a membership that exists changes nothing. Answers the entity with its brands. Emits catalog.update (changes: brands).',
  rest: { method: 'POST', path: '/catalog/entities/:id/brands/:brandId' },
  access: { permission: PERMISSION.update },
  input: { id: entityId, brandId: z.guid() },
  output: CatalogEntityRef,
  resolve: (ctx, input) => addMembership(ctx, 'brands', input.id, input.brandId),
});

defineOperation({
  name: 'catalogEntityBrandRemove',
  kind: 'mutation',
  summary: 'Remove an entity from a brand',
  description: '404 when the entity does not have the brand. Answers the entity with its brands. Emits catalog.update.',
  rest: { method: 'DELETE', path: '/catalog/entities/:id/brands/:brandId' },
  access: { permission: PERMISSION.update },
  input: { id: entityId, brandId: z.guid() },
  output: CatalogEntityRef,
  resolve: (ctx, input) => removeMembership(ctx, 'brands', input.id, input.brandId),
});
