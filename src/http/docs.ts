// /api/reference: the Scalar API reference, served from the npm package's standalone bundle
// (no CDN: many intranets have none), reading /api/doc. Configured to call no outside host:
// Scalar's defaults send "Try it" requests and its "Ask AI" agent through proxy.scalar.com /
// api.scalar.com, load fonts from fonts.scalar.com, and offer Share/Deploy toolbars that upload
// the document to scalar.com. test/platform/explorers-offline.test.ts blocks and counts them.
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
  <script>
    Scalar.createApiReference('#app', {
      url: '/api/doc',
      // '' (not undefined): no request proxy, "Try it" calls this server directly (same origin).
      proxyUrl: '',
      // The "Ask AI" agent searches api.scalar.com through proxy.scalar.com.
      agent: { disabled: true },
      // Developer Tools, Share and Deploy (shown on localhost) talk to scalar.com.
      showDeveloperTools: 'never',
      telemetry: false,
      // System fonts instead of fonts.scalar.com.
      withDefaultFonts: false,
      hideClientButton: false,
    });
  </script>
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
