import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The app loads the built `dist/` (tauri.conf.json has no devUrl). For a hot-reload loop, run
// `npm run dev` and start the app with TAURI_CONFIG='{"build":{"devUrl":"http://localhost:1420"}}'.
export default defineConfig({
  plugins: [svelte()],
  clearScreen: false,
  server: { port: 1420, strictPort: true },
  build: { outDir: 'dist', target: 'es2022', chunkSizeWarningLimit: 2000 },
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.ts'],
  },
});
