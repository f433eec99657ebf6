// Compiled by test/graph/codegen.test.ts (its own tsc run, apart from operations.ts): the
// result and variables types of the storefront and admin operations hold no `any` and no
// `unknown` at any depth — every field and argument the schema gives them is a precise type
// (the preset maps only JSON/JSONObject to unknown, and these operations must not use them).
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import type { AdminOrders, CartCreate, CartItemAdd, Checkout, ProductPage } from './operations.js';

type IsAny<T> = 0 extends 1 & T ? true : false;
/** 'any' | 'unknown' where such a type occurs inside T, never when T is precise all the way down. */
type Imprecise<T, Depth extends unknown[] = []> = Depth['length'] extends 12
  ? never
  : IsAny<T> extends true
    ? 'any'
    : unknown extends T
      ? 'unknown'
      : T extends string | number | boolean | bigint | null | undefined
        ? never
        : T extends ReadonlyArray<infer E>
          ? Imprecise<E, [...Depth, unknown]>
          : T extends object
            ? { [K in keyof T]-?: Imprecise<T[K], [...Depth, unknown]> }[keyof T]
            : never;
type Precise<T> = [Imprecise<T>] extends [never] ? true : false;
function precise<T>(_proof: Precise<T>): void {}

precise<ResultOf<typeof ProductPage>>(true);
precise<VariablesOf<typeof ProductPage>>(true);
precise<ResultOf<typeof CartCreate>>(true);
precise<VariablesOf<typeof CartCreate>>(true);
precise<ResultOf<typeof CartItemAdd>>(true);
precise<VariablesOf<typeof CartItemAdd>>(true);
precise<ResultOf<typeof Checkout>>(true);
precise<VariablesOf<typeof Checkout>>(true);
precise<ResultOf<typeof AdminOrders>>(true);
precise<VariablesOf<typeof AdminOrders>>(true);

// The check itself can fail: a JSONObject-typed value is imprecise.
precise<{ data: Record<string, unknown> }>(false);
precise<{ data: any[] }>(false);
