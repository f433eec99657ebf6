// /admin: the merchant dashboard's built bundle (admin/dist, built by scripts/admin-build.mjs).
// Assets have content-hashed names, so they are cached for a year and never revalidated; the
// index (and every client route, which answers the index: the SPA fallback) is revalidated on
// each visit so a new deployment is picked up at once. Every answer carries a strict CSP: scripts
// from this origin only (no inline script), API calls to this origin only.
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import { errorResponse } from './rest-errors.js';

export const ADMIN_DIST = path.join(PACKAGE_ROOT, 'admin', 'dist');

/**
 * 'unsafe-inline' for styles only: Mantine writes its CSS variables in a <style> element and
 * positions popovers with style attributes. Scripts stay 'self' (Vite emits no inline script).
 */
export const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // Media URLs may be signed URLs of the object store (another origin); previews are blob: URLs.
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const COMMON = { 'content-security-policy': ADMIN_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' };
/** Hashed asset names as Vite writes them (name-HASH.ext, grid-chart.module-HASH.js): dot-separated words, so never `..` nor a slash. */
const ASSET = /^\/admin\/assets\/((?:[A-Za-z0-9_-]+\.)+[a-z0-9]+)$/;

export function isAdminPath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/');
}

export function createAdminServer(dist = ADMIN_DIST) {
  const cache = new Map<string, Buffer>();
  function read(file: string): Buffer | null {
    const hit = cache.get(file);
    if (hit) return hit;
    try {
      const content = fs.readFileSync(file);
      // Assets never change under one name; the index is re-read so a rebuild shows at once.
      if (!file.endsWith('index.html')) cache.set(file, content);
      return content;
    } catch {
      return null;
    }
  }

  return function serveAdmin(request: Request, pathname: string): Response {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${pathname}`);
    }
    const body = (content: Buffer) => (request.method === 'HEAD' ? null : new Uint8Array(content));
    const asset = ASSET.exec(pathname)?.[1];
    if (asset) {
      const content = read(path.join(dist, 'assets', asset));
      if (!content) return errorResponse(404, 'NOT_FOUND', `No asset ${pathname}`);
      const type = TYPES[path.extname(asset)] ?? 'application/octet-stream';
      return new Response(body(content), { headers: { ...COMMON, 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable' } });
    }
    if (pathname.startsWith('/admin/assets/')) return errorResponse(404, 'NOT_FOUND', `No asset ${pathname}`);
    const index = read(path.join(dist, 'index.html'));
    if (!index) {
      return errorResponse(503, 'SERVICE_UNAVAILABLE', 'The dashboard bundle is not built: run `npm run admin:build` (npm start builds it when missing)');
    }
    return new Response(body(index), { headers: { ...COMMON, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
  };
}
