// /api/reference: the Scalar API reference, served from the npm package's standalone bundle
// (no CDN: many intranets have none), reading /api/doc.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let bundle: Buffer | null = null;
function scalarBundle(): Buffer {
  // The package exports only its ESM entry (dist/index.js); the browser bundle sits beside it.
  const entry = fileURLToPath(import.meta.resolve('@scalar/api-reference'));
  bundle ??= fs.readFileSync(path.join(path.dirname(entry), 'browser', 'standalone.js'));
  return bundle;
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Commerce API reference</title>
</head>
<body>
  <div id="app"></div>
  <script src="/api/reference/standalone.js"></script>
  <script>Scalar.createApiReference('#app', { url: '/api/doc', hideClientButton: false, withDefaultFonts: false });</script>
</body>
</html>`;

export function referencePage(): Response {
  return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
}

export function referenceBundle(): Response {
  return new Response(new Uint8Array(scalarBundle()), {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
  });
}
