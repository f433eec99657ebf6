// Payload types of the events the customers module emits (see events/registry.ts).
import type { CustomerPayload } from './views.js';

declare module '../../events/registry.js' {
  interface EventPayloads {
    'customers.create': { customer: CustomerPayload };
    'customers.update': { customer: CustomerPayload; changed: string[] };
  }
}
