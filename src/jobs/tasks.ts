// Task definitions: what a job runs. A module declares its tasks with defineTask at import time
// (like defineOperation); the runner looks them up by slug when it claims a job. Input and output
// types are declared by augmenting TaskTypes, so enqueue and handler agree:
//
//   declare module '../../jobs/tasks.js' {
//     interface TaskTypes { 'webhooks/deliver': { input: { deliveryId: string }; output: DeliveryOutcome } }
//   }
import type { Config } from '../config/index.js';
import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services.js';
import type { ClaimedJob } from './store.js';

// biome-ignore lint/suspicious/noEmptyInterface: a registry, empty here and filled by declaration merging
export interface TaskTypes {}

export type TaskSlug = keyof TaskTypes | (string & {});
export type TaskInput<S> = S extends keyof TaskTypes ? (TaskTypes[S] extends { input: infer I } ? I : Record<string, unknown>) : Record<string, unknown>;
export type TaskOutput<S> = S extends keyof TaskTypes ? (TaskTypes[S] extends { output: infer O } ? O : unknown) : unknown;

export interface Backoff {
  type: 'fixed' | 'exponential';
  /** Milliseconds: fixed waits this long each time; exponential waits delay·2^(n−1) after attempt n. */
  delay: number;
}

export interface RetryPolicy {
  /** Retries after the first run: a task with `attempts: 3` runs at most 4 times. */
  attempts: number;
  backoff?: Backoff;
}

export interface TaskContext {
  /** The job as claimed: attempts already counts this run. */
  job: ClaimedJob;
  organizationId: string;
  db: Db;
  logger: Logger;
  services: Services;
  config: Config;
  /** Aborted when this run lost its claim (reaped) or the worker is shutting down for good. */
  signal: AbortSignal;
}

export interface TaskDefinition<S extends TaskSlug = TaskSlug> {
  /** domain/action, e.g. webhooks/deliver. */
  slug: S;
  handler: (input: TaskInput<S>, ctx: TaskContext) => Promise<TaskOutput<S>> | TaskOutput<S>;
  /** Default: no retries (max_attempts 1). A function reads the policy from config at enqueue and failure time. */
  retries?: RetryPolicy | ((config: Config) => RetryPolicy);
  concurrency?: {
    /** The concurrency key for an input, or null for none. */
    key: (input: TaskInput<S>) => string | null | undefined;
    /** At most one job of the key processing at once (default true). */
    exclusive?: boolean;
    /** A new job replaces an older pending job of the same task, organization and key (default false). */
    supersedes?: boolean;
  };
}

/**
 * Thrown by a handler to steer the runner: `retry: false` fails the job now whatever attempts
 * remain (a webhook receiver answered 400); `retryAfterMs` overrides the backoff (Retry-After).
 */
export class JobError extends Error {
  override name = 'JobError';
  readonly retry: boolean;
  readonly retryAfterMs?: number;
  constructor(message: string, options: { retry?: boolean; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.retry = options.retry ?? true;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export class TaskRegistry {
  private readonly tasks = new Map<string, TaskDefinition>();

  define<S extends TaskSlug>(definition: TaskDefinition<S>): TaskDefinition<S> {
    if (!definition.slug || typeof definition.handler !== 'function') throw new TypeError('a task needs a slug and a handler');
    if (this.tasks.has(definition.slug)) throw new Error(`task ${definition.slug} is defined twice`);
    this.tasks.set(definition.slug, definition as unknown as TaskDefinition);
    return definition;
  }

  get(slug: string): TaskDefinition | undefined {
    return this.tasks.get(slug);
  }

  slugs(): string[] {
    return [...this.tasks.keys()];
  }
}

/** The process-wide registry that modules and plugins define their tasks in. */
export const tasks = new TaskRegistry();

export function defineTask<S extends TaskSlug>(definition: TaskDefinition<S>): TaskDefinition<S> {
  return tasks.define(definition);
}

export function retryPolicyOf(task: TaskDefinition | undefined, config: Config): RetryPolicy {
  const policy = typeof task?.retries === 'function' ? task.retries(config) : task?.retries;
  return policy ?? { attempts: 0 };
}
