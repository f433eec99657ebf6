// @commerce-service/client: the typed SDK. Runs in browsers, React Native and Node >= 20; it
// imports nothing from the server and nothing from `node:` (test/client/types.test.ts compiles
// it on its own with no Node types; test/client/package.test.ts installs the packed tarball).
export { createClient, fetchWithRetryAfter, retryAfterMs } from './client.js';
export type { ApiError, AuthResult, ClientOptions, CommerceClient, SessionUser, paths, components } from './client.js';
export { createOfflineQueue, operationUrl } from './offline-queue.js';
export type {
  EnqueueInput,
  EnqueuedOperation,
  OfflineQueue,
  OfflineQueueOptions,
  QueueAnswer,
  QueueListener,
  QueueMethod,
  QueuePath,
  QueueSuccess,
  QueuedOperation,
  QueuedStatus,
} from './offline-queue.js';
export { asyncStorageAdapter, jsonFileStorage, localStorageAdapter, memoryStorage } from './storage.js';
export type { AsyncStorageLike, FsPromises, QueueStorage, StorageLike } from './storage.js';
