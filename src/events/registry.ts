// The spec's event names, and their payload types. Each domain module declares the payloads of
// its own events by augmenting EventPayloads (declaration merging), next to the code that
// emits them:
//
//   declare module '../../events/registry.js' {
//     interface EventPayloads { 'catalog.create': { entity: CatalogEntityPayload } }
//   }

// biome-ignore lint/suspicious/noEmptyInterface: a registry, empty here and filled by declaration merging
export interface EventPayloads {}

/** Every event name the service emits; webhook subscriptions accept these or `*`. */
export const EVENT_NAMES = [
  'orders.create',
  'orders.statusChange',
  'orders.edit',
  'catalog.create',
  'catalog.update',
  'catalog.delete',
  'catalog.import',
  'inventory.afterAdjust',
  'customers.create',
  'customers.update',
  'pricing.create',
  'pricing.update',
  'promotions.create',
  'promotions.update',
  'fulfillment.create',
  'cart.afterAddItem',
  'payments.update',
  'giftcards.issue',
  'giftcards.disable',
  'giftcards.adjust',
  'storecredit.move',
  // Returns (issue 27): src/modules/returns/events.ts.
  'return.created',
  'return.approved',
  'return.rejected',
  'return.received',
  'return.refunded',
  'return.closed',
  'return.cancelled',
  'return.exchanged',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** Event names plugins emit (manifest `events`), registered when the plugin is activated. */
const pluginEventNames = new Set<string>();

export function registerEventNames(names: readonly string[]): void {
  for (const name of names) pluginEventNames.add(name);
}

/** Every name a webhook may subscribe to: the core's and the active plugins'. */
export function knownEventNames(): string[] {
  return [...EVENT_NAMES, ...pluginEventNames];
}

/** The payload type of an event: the module's declaration, or a JSON object until it has one. */
export type EventPayload<N extends EventName> = N extends keyof EventPayloads ? EventPayloads[N] : Record<string, unknown>;
