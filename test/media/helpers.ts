// Multipart uploads the way a client sends them.
import sharp from 'sharp';
import type { TestApp, TestResponse } from '../support/app.js';

export async function png(width: number, height: number, color = '#c33'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

export async function upload(t: TestApp, apiKey: string, parts: { file?: { bytes: Buffer; type?: string; name?: string }; alt?: string }): Promise<TestResponse> {
  const form = new FormData();
  if (parts.file) form.append('file', new Blob([new Uint8Array(parts.file.bytes)], { type: parts.file.type ?? 'application/octet-stream' }), parts.file.name ?? 'upload.bin');
  if (parts.alt !== undefined) form.append('alt', parts.alt);
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  return t.request('/api/media/upload', { method: 'POST', apiKey, rawBody: body, headers: { 'content-type': encoded.headers.get('content-type')! } });
}
