// The dashboard's build: root admin/, served by the API server under /admin/ (src/http/admin.ts).
// Hashed file names let the server cache assets for a year; index.html is revalidated each time.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
const api = process.env.ADMIN_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root,
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: path.join(root, 'dist'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline scripts or module-preload polyfill: the CSP allows scripts from 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 900,
  },
  server: {
    // `npm run admin:dev`: Vite serves the screens, the API answers /graphql and /api.
    proxy: {
      '/graphql': { target: api, changeOrigin: false },
      '/api': { target: api, changeOrigin: false },
      '/media': { target: api, changeOrigin: false },
    },
  },
});
