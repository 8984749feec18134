import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: fromRoot('./src/web'),
  publicDir: fromRoot('./src/web/public'),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@shared': fromRoot('./src/shared'),
      '@web': fromRoot('./src/web'),
    },
  },
  build: {
    outDir: fromRoot('./dist/web'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // The first screen needs the shared messages, not the validation library they once
        // shared a chunk with: zod loads with the first form (issue 15 item 3).
        codeSplitting: {
          groups: [
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'shared-domain', test: /src[\\/]shared[\\/]domain[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:5000' },
  },
});
