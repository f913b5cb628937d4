// The dashboard is built to `dist/` and served by the gateway at `/` (apps/gateway/src/http/dashboard.ts).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500 },
  // `npm run dev` (vite) proxies the APIs to a gateway on :1337.
  server: { proxy: { '/v1': 'http://127.0.0.1:1337', '/p': 'http://127.0.0.1:1337' } },
});
