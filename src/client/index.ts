// commerce-service/client: the typed SDK. Runs in browsers, React Native and Node >= 20; it
// imports nothing from the server (test/client/types.test.ts compiles it on its own).
export { createClient, fetchWithRetryAfter, retryAfterMs } from './client.js';
export type { ApiError, AuthResult, ClientOptions, CommerceClient, SessionUser, paths, components } from './client.js';
export { createOfflineQueue } from './offline-queue.js';
export type { EnqueueInput, OfflineQueue, OfflineQueueOptions, QueuedOperation, QueuedStatus } from './offline-queue.js';
export { jsonFileStorage, localStorageAdapter, memoryStorage } from './storage.js';
export type { QueueStorage, StorageLike } from './storage.js';
