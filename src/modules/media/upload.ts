// Receiving an upload: the multipart body is parsed as it streams (busboy, the parser behind
// most Node upload middleware, rather than Request.formData(), which buffers everything), the
// file part goes straight to a temporary file while its SHA-256 is computed, and a file above
// media.maxUploadBytes is cut off at the limit (413) without reading the rest into memory.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Config } from '../../config/index.js';
import { AppError, validationFailed } from '../../errors.js';
import { payloadTooLarge, type ReceivedFile } from './service.js';
import { mediaStorage } from './storage.js';
import { assertNoNul } from '../../http/input-guard.js';
import { appErrorResponse } from '../../http/rest-errors.js';

export interface ReceivedUpload {
  file: ReceivedFile | null;
  fields: Record<string, string>;
}

/** Writes a stream to a temporary file, hashing and counting; throws 413 past `limit`. */
export async function streamToTemp(config: Config, source: Readable, declaredType: string | null, limit = config.media.maxUploadBytes): Promise<ReceivedFile> {
  const tempFile = path.join(await mediaStorage(config).tempDir(), randomUUID());
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          size += chunk.length;
          if (size > limit) throw payloadTooLarge(limit);
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(tempFile),
    );
  } catch (error) {
    await fs.rm(tempFile, { force: true });
    throw error;
  }
  return { tempFile, size, checksum: hash.digest('hex'), declaredType };
}

/** The body's chunks through its reader: the server's Request may carry a ponyfilled stream. */
export async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Buffer> {
  const reader = body.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      yield Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

export async function receiveMultipart(request: Request, config: Config): Promise<ReceivedUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new AppError('BAD_REQUEST', 'Send the upload as multipart/form-data with a `file` part (and optionally `alt`)');
  }
  if (!request.body) throw validationFailed([{ field: 'file', message: 'is required' }]);
  const limit = config.media.maxUploadBytes;
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fields: 20, fieldSize: 4096, parts: 25 } });
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed multipart/form-data header (boundary missing)');
  }
  const fields: Record<string, string> = {};
  let refused: unknown = null;
  // Assigned in the parser's callbacks, which TypeScript's narrowing cannot see.
  let pending = null as Promise<ReceivedFile> | null;
  const done = new Promise<void>((resolve, reject) => {
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || pending !== null) {
        stream.resume();
        return;
      }
      pending = streamToTemp(config, stream, info.mimeType || null, limit);
      // Settled later; keep an early 413 from becoming an unhandled rejection meanwhile.
      pending.catch(() => undefined);
      pending.catch((error) => reject(error));
    });
    parser.on('field', (name, value) => {
      // The edge's NUL guard reads JSON and forms, not multipart: a NUL in `alt` reached PostgreSQL.
      // Refused once the body is read (fields are small), so a file part in flight still ends.
      try {
        assertNoNul(name, value);
        fields[name] = value;
      } catch (error) {
        refused ??= error;
      }
    });
    parser.on('close', () => resolve());
    parser.on('error', () => reject(new AppError('BAD_REQUEST', 'Malformed multipart/form-data body')));
  });
  const source = Readable.from(chunksOf(request.body));
  source.on('error', () => parser.destroy());
  source.pipe(parser);
  try {
    await done;
    const file = pending !== null ? await pending : null;
    if (refused) {
      if (file) await fs.rm(file.tempFile, { force: true });
      throw refused;
    }
    return { file, fields };
  } catch (error) {
    source.unpipe(parser);
    source.destroy();
    const file = pending !== null ? await pending.catch(() => null) : null;
    if (file) await fs.rm(file.tempFile, { force: true });
    throw error;
  }
}

/**
 * The answer to a refused upload (media and bulk imports): the temporary file goes now, or every
 * refused upload would leave one behind, and a refused body may still be arriving, so a 413
 * closes the connection instead of draining it. Anything but an AppError is rethrown.
 */
export async function refusedUpload(error: unknown, tempFile: string | null | undefined): Promise<Response> {
  if (tempFile) await fs.rm(tempFile, { force: true });
  if (!(error instanceof AppError)) throw error;
  const response = appErrorResponse(error);
  if (error.status === 413) response.headers.set('connection', 'close');
  return response;
}
