// Plugin hooks: synchronous extension points inside a request (unlike events, which are seen
// after commit). Handlers are appended to the list of their key and run in registration order.
//   - before-hooks (`checkout.beforeCreate`) are fatal: the first that throws stops the operation
//     and its error propagates (the caller maps it, e.g. to CHECKOUT_FAILED);
//   - after-hooks (`orders.afterCreate`) are not: every handler runs, and the failures come back
//     as HookError[] for the response (checkout's `meta.hookErrors`).
// A module declares the payload of its keys by augmenting HookPayloads:
//
//   declare module '../../events/hooks.js' {
//     interface HookPayloads { 'checkout.beforeCreate': { cart: Cart; input: CheckoutInput } }
//   }
import type { RequestContext } from '../context.js';

// biome-ignore lint/suspicious/noEmptyInterface: a registry, empty here and filled by declaration merging
export interface HookPayloads {}

export type HookKey = keyof HookPayloads | (string & {});
export type HookPayload<K> = K extends keyof HookPayloads ? HookPayloads[K] : Record<string, unknown>;

/** What a hook sees of the request: its organization, actor, database (or transaction) and services. */
export type HookContext = Pick<RequestContext, 'organization' | 'actor' | 'db' | 'services' | 'logger' | 'config'> & {
  /** The caller's transaction when the hook runs inside one. */
  tx?: unknown;
};

export type HookHandler<K extends HookKey> = (payload: HookPayload<K>, ctx: HookContext) => Promise<void> | void;

export interface HookError {
  key: string;
  /** The handler's name (its registration name or function name). */
  hook: string;
  message: string;
  code?: string;
}

interface Registered {
  name: string;
  handler: HookHandler<HookKey>;
}

/** `checkout.beforeCreate` → before, `orders.afterCreate` → after, by the last segment. */
export function hookPhase(key: string): 'before' | 'after' | 'other' {
  const last = key.slice(key.lastIndexOf('.') + 1);
  if (last.startsWith('before')) return 'before';
  if (last.startsWith('after')) return 'after';
  return 'other';
}

export class HookRegistry {
  private readonly handlersByKey = new Map<string, Registered[]>();

  /** Appends a handler to the list of `key`; returns a function that removes it. */
  on<K extends HookKey>(key: K, handler: HookHandler<K>, options: { name?: string } = {}): () => void {
    if (!key) throw new TypeError('a hook needs a key');
    const entry: Registered = { name: options.name ?? (handler.name || `${key}#${this.count(key) + 1}`), handler: handler as HookHandler<HookKey> };
    const list = this.handlersByKey.get(key) ?? [];
    list.push(entry);
    this.handlersByKey.set(key, list);
    return () => {
      const current = this.handlersByKey.get(key);
      const index = current?.indexOf(entry) ?? -1;
      if (current && index >= 0) current.splice(index, 1);
    };
  }

  count(key: string): number {
    return this.handlersByKey.get(key)?.length ?? 0;
  }

  keys(): string[] {
    return [...this.handlersByKey.keys()].filter((key) => this.count(key) > 0);
  }

  /** Runs every handler of a before-key in order; the first error propagates and stops the rest. */
  async runBefore<K extends HookKey>(key: K, payload: HookPayload<K>, ctx: HookContext): Promise<void> {
    for (const entry of [...(this.handlersByKey.get(key) ?? [])]) {
      await entry.handler(payload as never, ctx);
    }
  }

  /** Runs every handler of an after-key; failures are collected, never thrown. */
  async runAfter<K extends HookKey>(key: K, payload: HookPayload<K>, ctx: HookContext): Promise<HookError[]> {
    const errors: HookError[] = [];
    for (const entry of [...(this.handlersByKey.get(key) ?? [])]) {
      try {
        await entry.handler(payload as never, ctx);
      } catch (error) {
        const code = (error as { code?: unknown })?.code;
        errors.push({
          key,
          hook: entry.name,
          message: error instanceof Error ? error.message : String(error),
          ...(typeof code === 'string' ? { code } : {}),
        });
        ctx.logger.warn({ err: error, hook: entry.name, key }, 'after-hook failed (non-fatal)');
      }
    }
    return errors;
  }

  /** By the key's phase: before-keys throw, every other key collects errors. */
  async run<K extends HookKey>(key: K, payload: HookPayload<K>, ctx: HookContext): Promise<HookError[]> {
    if (hookPhase(key) === 'before') {
      await this.runBefore(key, payload, ctx);
      return [];
    }
    return this.runAfter(key, payload, ctx);
  }
}

/** The process-wide hook registry that plugins append their handlers to. */
export const hooks = new HookRegistry();
