// Where the offline queue keeps its operations. The queue reads once at start and writes the
// whole list after every change: a queue is small, and a whole-list write keeps each storage
// consistent without partial updates.
import type { QueuedOperation } from './offline-queue.js';

export interface QueueStorage {
  load(): Promise<QueuedOperation[]> | QueuedOperation[];
  save(operations: QueuedOperation[]): Promise<void> | void;
}

/** Volatile storage (the default): the queue lives as long as the process or page. */
export function memoryStorage(initial: QueuedOperation[] = []): QueueStorage {
  let operations = structuredCopy(initial);
  return {
    load: () => structuredCopy(operations),
    save(next) {
      operations = structuredCopy(next);
    },
  };
}

/** The part of the Web Storage API the queue needs (window.localStorage, or a compatible store). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Persists in `localStorage` (or anything shaped like it) under one key. */
export function localStorageAdapter(store: StorageLike, key = 'commerce.offlineQueue'): QueueStorage {
  return {
    load() {
      const raw = store.getItem(key);
      if (!raw) return [];
      try {
        const parsed = JSON.parse(raw) as unknown;
        return Array.isArray(parsed) ? (parsed as QueuedOperation[]) : [];
      } catch {
        return [];
      }
    },
    save(operations) {
      store.setItem(key, JSON.stringify(operations));
    },
  };
}

/**
 * Persists to a JSON file (Node). `node:fs` is imported lazily so that bundles for browsers and
 * React Native, which never call this, do not need it. Writes go to a temporary file renamed
 * over the target, so a crash mid-write leaves the previous queue intact.
 */
interface FsPromises {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, data: string, encoding: 'utf8'): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}
// A non-literal specifier: browser and React Native builds (and their type checks, without
// @types/node) never resolve node:fs.
const NODE_FS = 'node:fs/promises';
const nodeFs = () => import(/* @vite-ignore */ NODE_FS) as Promise<FsPromises>;

export function jsonFileStorage(file: string): QueueStorage {
  let chain: Promise<void> = Promise.resolve();
  return {
    async load() {
      const fs = await nodeFs();
      try {
        const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
        return Array.isArray(parsed) ? (parsed as QueuedOperation[]) : [];
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return [];
        throw error;
      }
    },
    save(operations) {
      const text = JSON.stringify(operations, null, 2);
      // Serialized: two overlapping saves must not land in the wrong order.
      chain = chain.then(async () => {
        const fs = await nodeFs();
        const temporary = `${file}.${Date.now()}.tmp`;
        await fs.writeFile(temporary, text, 'utf8');
        await fs.rename(temporary, file);
      });
      return chain;
    },
  };
}

function structuredCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
