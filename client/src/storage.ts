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

/** An asynchronous key/value store: React Native's AsyncStorage, IndexedDB wrappers, Capacitor Preferences. */
export interface AsyncStorageLike {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
}

/** Persists in an asynchronous store (e.g. `@react-native-async-storage/async-storage`) under one key. */
export function asyncStorageAdapter(store: AsyncStorageLike, key = 'commerce.offlineQueue'): QueueStorage {
  let chain: Promise<void> = Promise.resolve();
  return {
    async load() {
      const raw = await store.getItem(key);
      if (!raw) return [];
      try {
        const parsed = JSON.parse(raw) as unknown;
        return Array.isArray(parsed) ? (parsed as QueuedOperation[]) : [];
      } catch {
        return [];
      }
    },
    save(operations) {
      const text = JSON.stringify(operations);
      // Serialized: an older write finishing last must not overwrite a newer queue.
      chain = chain.then(() => store.setItem(key, text));
      return chain;
    },
  };
}

/** The three `node:fs/promises` functions the file storage uses (pass the module itself). */
export interface FsPromises {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, data: string, encoding: 'utf8'): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/**
 * Persists to a JSON file (Node): `jsonFileStorage(file, await import('node:fs/promises'))`.
 * The file system is handed in rather than imported, so the package has no `node:` import at
 * all and bundles for browsers and React Native never meet one. Writes go to a temporary file
 * renamed over the target, so a crash mid-write leaves the previous queue intact.
 */
export function jsonFileStorage(file: string, fs: FsPromises): QueueStorage {
  let chain: Promise<void> = Promise.resolve();
  return {
    async load() {
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
