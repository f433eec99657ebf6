// In-process event subscribers. The dispatcher (dispatcher.ts) hands them each outbox event once,
// after the write that recorded it committed, inside the transaction that marks the event
// dispatched: what a subscriber writes through ctx.db commits together with that mark, so its
// database effects happen exactly once. A subscriber that must do slow or fallible work (HTTP,
// mail) should enqueue a job through ctx.db instead (ctx.services.jobs.enqueue(options, ctx.db)).
//
//   onEvent('catalog.update', async (event, ctx) => { ... event.payload is typed ... });
import type { Config } from '../config/index.js';
import type { Tx } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services.js';
import type { EventName, EventPayload } from './registry.js';

export interface DispatchedEvent<N extends EventName = EventName> {
  id: string;
  organizationId: string;
  type: N;
  payload: EventPayload<N>;
  actorId: string | null;
  requestId: string | null;
  /** The trace of the request that recorded it (observability/trace-context.ts); null when untraced. */
  traceparent?: string | null;
  createdAt: Date;
}

export interface SubscriberContext {
  /** The dispatch transaction. */
  db: Tx;
  logger: Logger;
  services: Services;
  config: Config;
}

export interface SubscriberOptions {
  /** Shown in logs when the subscriber fails. */
  name?: string;
  /**
   * A required subscriber's failure aborts the dispatch: the events stay undispatched and are
   * offered again (at-least-once). Otherwise its failure is logged and its writes rolled back
   * (a savepoint) while the others proceed.
   */
  required?: boolean;
}

export type EventHandler<N extends EventName> = (event: DispatchedEvent<N>, ctx: SubscriberContext) => Promise<void> | void;
export type BatchHandler = (events: DispatchedEvent[], ctx: SubscriberContext) => Promise<void> | void;

export interface Subscriber {
  name: string;
  required: boolean;
  event: EventName | '*';
  handler: EventHandler<EventName>;
}

export interface BatchSubscriber {
  name: string;
  required: boolean;
  handler: BatchHandler;
}

export class EventSubscribers {
  private readonly perEvent: Subscriber[] = [];
  private readonly batch: BatchSubscriber[] = [];

  /** Subscribes to one event name, or to every event with `*`. Returns an unsubscribe function. */
  on<N extends EventName>(event: N | '*', handler: EventHandler<N>, options: SubscriberOptions = {}): () => void {
    const subscriber: Subscriber = {
      name: options.name ?? (handler.name || `${event} subscriber`),
      required: options.required ?? false,
      event,
      handler: handler as unknown as EventHandler<EventName>,
    };
    this.perEvent.push(subscriber);
    return () => {
      const index = this.perEvent.indexOf(subscriber);
      if (index >= 0) this.perEvent.splice(index, 1);
    };
  }

  /** Receives every dispatched batch at once (webhook fan-out: one query for all of it). */
  onBatch(handler: BatchHandler, options: SubscriberOptions = {}): () => void {
    const subscriber: BatchSubscriber = { name: options.name ?? (handler.name || 'batch subscriber'), required: options.required ?? false, handler };
    this.batch.push(subscriber);
    return () => {
      const index = this.batch.indexOf(subscriber);
      if (index >= 0) this.batch.splice(index, 1);
    };
  }

  forEvent(type: string): Subscriber[] {
    return this.perEvent.filter((s) => s.event === '*' || s.event === type);
  }

  batchSubscribers(): BatchSubscriber[] {
    return [...this.batch];
  }
}

/** The process-wide subscribers that modules and plugins register at import. */
export const eventSubscribers = new EventSubscribers();

export function onEvent<N extends EventName>(event: N | '*', handler: EventHandler<N>, options?: SubscriberOptions): () => void {
  return eventSubscribers.on(event, handler, options);
}
