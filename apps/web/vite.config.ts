import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption, type ProxyOptions } from 'vite';

/** Paths the Tonearm server answers; everything else is the single-page app. */
const SERVER_PATHS = ['/api', '/media', '/artists', '/healthz'] as const;

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '4000'}`;
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  SERVER_PATHS.map((path) => [path, { target: apiTarget, changeOrigin: false }]),
);

// The service worker (vite-plugin-pwa) joins this list in the offline issue.
const plugins: PluginOption[] = [react()];

export default defineConfig({
  plugins,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { proxy },
  preview: { proxy },
});
