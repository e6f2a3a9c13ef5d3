import { defineConfig } from 'vite';
import { precompress } from './tooling/precompress.js';

// `npm run dev -w dashboard` serves the dashboard with hot reload and sends the API calls to a
// service started with `npm start` on port 3000.
export default defineConfig({
  plugins: [precompress()],
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0 },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000', '/docs': 'http://127.0.0.1:3000' },
  },
});
