// Fields that only read the parent's property of the same name are exposed (`t.expose*`), not
// given a resolver. graphql-jit (src/graphql/jit.ts) compiles a field without a resolver to a
// property read inside the compiled query, and calls a resolver for every other one, each call
// with its own try, promise check, response path and result handler. A REST list page of 20 with
// variants, attributes and pricing ran ~2,000 such calls; exposing them cut its server CPU by a
// fifth (issue 30, README "What each change bought"). A plain read given a resolver in one of the
// types storefront pages, carts and orders send fails here until it is exposed or listed with why.
import { describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import '../../src/schema.js';
import { buildSchema } from '../../src/graphql/schema.js';

/** The types every storefront page, cart and checkout answer is made of. */
const HOT_TYPES = [
  'CatalogEntity',
  'CatalogAttributes',
  'CatalogVariant',
  'CatalogVariantOption',
  'CatalogCategory',
  'CatalogBrand',
  'Price',
  'ResolvedPrice',
  'VariantStock',
  'Cart',
  'CartItem',
  'Order',
  'OrderLine',
  'PageMeta',
  'Pagination',
];

/**
 * Plain reads that keep a resolver, and why: the parent's property is typed wider than the
 * field (a string column behind an enum, Prisma's JSON value behind an object type), so Pothos'
 * `t.expose` does not type-check, and a cast on a property name would hide a renamed column.
 */
const KEPT: Record<string, string> = {
  'CatalogEntity.status': 'string column behind the CatalogEntityStatus enum',
  'CatalogEntity.metadata': "Prisma's JSON value behind JSONObject",
  'CatalogVariant.status': 'string column behind the CatalogVariantStatus enum',
  'Cart.status': 'string column behind the CartStatus enum',
  'Order.status': 'string column behind the OrderStatus enum',
  'Order.paymentStatus': 'string column behind the PaymentStatus enum',
  'Order.shippingAddress': "Prisma's JSON value behind Address",
  'Order.pricing': "Prisma's JSON value behind OrderPricing",
  'OrderLine.fulfillmentStatus': 'string column behind the LineFulfillmentStatus enum',
};

/** `(v) => v.name`: the resolver's own source once TypeScript's types are gone. */
function plainRead(resolve: (...args: never[]) => unknown): string | null {
  const match = /^\(?\s*(\w+)\s*\)?\s*=>\s*\1\.(\w+)\s*$/.exec(resolve.toString());
  return match?.[2] ?? null;
}

describe('fields that read a property of the same name compile inline', () => {
  it('have no resolver in the types of storefront pages, carts and orders', () => {
    const schema = buildSchema();
    const offenders: string[] = [];
    for (const name of HOT_TYPES) {
      const type = schema.getType(name);
      expect(isObjectType(type), name).toBe(true);
      if (!isObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        const key = `${name}.${field.name}`;
        if (field.resolve && plainRead(field.resolve as never) === field.name && !KEPT[key]) offenders.push(key);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('lists only exceptions that still exist', () => {
    const schema = buildSchema();
    for (const key of Object.keys(KEPT)) {
      const [typeName, fieldName] = key.split('.') as [string, string];
      const type = schema.getType(typeName);
      const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
      expect(field?.resolve, key).toBeTypeOf('function');
    }
  });

  it('still finds a plain read given a resolver', () => {
    expect(plainRead((v: { id: string }) => v.id)).toBe('id');
    expect(plainRead((v: { id: string }) => v.id.toLowerCase())).toBeNull();
  });
});
