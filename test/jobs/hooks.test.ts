// Plugin hooks: handlers appended per key; before-hooks are fatal, after-hooks collect errors.
// (Test-only keys: checkout and orders declare the payloads of their real ones.)
import { describe, expect, it } from 'vitest';
import { HookRegistry, hookPhase, type HookContext } from '../../src/events/hooks.js';

declare module '../../src/events/hooks.js' {
  interface HookPayloads {
    'tests.beforeCheckout': { cartId: string; total: number };
    'tests.afterOrder': { orderId: string };
  }
}

const warnings: unknown[] = [];
const ctx = { logger: { warn: (...args: unknown[]) => warnings.push(args) } } as unknown as HookContext;

describe('hooks', () => {
  it('runs handlers of a key in the order they were appended', async () => {
    const hooks = new HookRegistry();
    const calls: string[] = [];
    hooks.on('tests.beforeCheckout', (payload) => void calls.push(`first:${payload.cartId}`));
    hooks.on('tests.beforeCheckout', async () => void calls.push('second'));
    hooks.on('tests.afterOrder', () => void calls.push('other key'));
    await hooks.runBefore('tests.beforeCheckout', { cartId: 'c1', total: 100 }, ctx);
    expect(calls).toEqual(['first:c1', 'second']);
    expect(hooks.count('tests.beforeCheckout')).toBe(2);
    expect(hooks.keys().sort()).toEqual(['tests.afterOrder', 'tests.beforeCheckout']);
  });

  it('a throwing before-hook stops the operation: its error propagates and later handlers do not run', async () => {
    const hooks = new HookRegistry();
    const calls: string[] = [];
    hooks.on('tests.beforeCheckout', () => {
      throw new Error('fraud check refused the cart');
    });
    hooks.on('tests.beforeCheckout', () => void calls.push('later'));
    await expect(hooks.run('tests.beforeCheckout', { cartId: 'c1', total: 1 }, ctx)).rejects.toThrow('fraud check refused the cart');
    expect(calls).toEqual([]);
  });

  it('after-hooks all run; their failures come back as hookErrors, never thrown', async () => {
    const hooks = new HookRegistry();
    const calls: string[] = [];
    hooks.on('tests.afterOrder', function notifyErp() {
      throw Object.assign(new Error('ERP unreachable'), { code: 'ERP_DOWN' });
    });
    hooks.on('tests.afterOrder', () => void calls.push('loyalty points'));
    hooks.on('tests.afterOrder', async () => Promise.reject(new Error('mailer down')), { name: 'confirmation-mail' });
    const errors = await hooks.run('tests.afterOrder', { orderId: 'o1' }, ctx);
    expect(calls).toEqual(['loyalty points']);
    expect(errors).toEqual([
      { key: 'tests.afterOrder', hook: 'notifyErp', message: 'ERP unreachable', code: 'ERP_DOWN' },
      { key: 'tests.afterOrder', hook: 'confirmation-mail', message: 'mailer down' },
    ]);
    expect(warnings.length).toBeGreaterThanOrEqual(2);
  });

  it('a handler can be removed; phases come from the key', async () => {
    const hooks = new HookRegistry();
    const calls: string[] = [];
    const off = hooks.on('tests.afterOrder', () => void calls.push('x'));
    off();
    expect(await hooks.runAfter('tests.afterOrder', { orderId: 'o' }, ctx)).toEqual([]);
    expect(calls).toEqual([]);
    expect(hookPhase('checkout.beforeCreate')).toBe('before');
    expect(hookPhase('orders.afterCreate')).toBe('after');
    expect(hookPhase('cart.afterAddItem')).toBe('after');
    expect(hookPhase('pricing.resolve')).toBe('other');
  });
});
