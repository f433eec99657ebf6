// What a media store does. Its own file so each adapter (storage.ts for local files, s3-storage.ts)
// names it without importing the file that chooses between them.
export interface MediaStorage {
  readonly name: string;
  /** Moves a finished temporary file into the store under `key`. */
  putFile(key: string, tempFile: string, mimeType: string): Promise<void>;
  /** The object's bytes, or null when it does not exist. */
  get(key: string): Promise<{ body: ReadableStream<Uint8Array>; size: number } | null>;
  /** Removes the object; an absent object is not an error (removal is retried). */
  remove(key: string): Promise<void>;
  /** Directory for temporary upload files (same filesystem as the store for local: rename is atomic). */
  tempDir(): Promise<string>;
  /**
   * A URL serving the object directly from the store until `expiresAt` (S3: a presigned GET).
   * Absent for the local store: its URLs are the API's own HMAC-signed content route.
   */
  presign?(key: string, ttlSeconds: number, mimeType: string): Promise<{ url: string; expiresAt: Date }>;
}
