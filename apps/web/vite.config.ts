import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption, type ProxyOptions } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { checkChunkGraph, dashboardChunk, DASHBOARD_CHUNK } from './chunk-groups.js';
import { stripEndpointDescriptions } from './strip-descriptions.js';

/** Paths the Tonearm server answers; everything else is the single-page app. */
const SERVER_PATHS = ['/api', '/media', '/artists', '/healthz'] as const;

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '4000'}`;
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  SERVER_PATHS.map((path) => [path, { target: apiTarget, changeOrigin: false }]),
);

const BACKGROUND = '#09090b';

/**
 * The service worker is our own (src/sw/sw.ts, injectManifest): it must answer Range requests for downloaded audio
 * and keep API JSON and pages out of its caches, which generateSW's recipes do not express. The plugin compiles it,
 * injects the precache list of this build and writes the web app manifest. It registers from src/main.tsx.
 */
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'src/sw',
  filename: 'sw.ts',
  injectRegister: false,
  manifestFilename: 'manifest.webmanifest',
  injectManifest: {
    rollupFormat: 'iife',
    globPatterns: ['**/*.{js,css,html,svg,png,wav,webmanifest}'],
    // Shell files are small (the welcome chime, 84 KB, is the largest); anything near this limit does not belong here.
    maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
  },
  manifest: {
    id: '/',
    name: 'Tonearm',
    short_name: 'Tonearm',
    description: 'Your self-hosted music, streamed anywhere, and downloaded songs offline.',
    lang: 'en',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    background_color: BACKGROUND,
    theme_color: BACKGROUND,
    categories: ['music', 'entertainment'],
    icons: [
      { src: '/pwa-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/pwa-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  },
  devOptions: { enabled: false },
});

const plugins: PluginOption[] = [react(), pwa, checkChunkGraph(), stripEndpointDescriptions()];

/**
 * react-router 7 lists only its development build in its package exports (warnings, invariant messages); a build
 * takes the production one it ships beside it (`npm run bench:bundle`: 'react-router' smaller first-load JS).
 */
const routerProduction = fileURLToPath(
  new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

export default defineConfig(({ command }) => ({
  plugins,
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: routerProduction }] } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: which chunks each page loads, for `npm run bench:bundle` (a dot folder: not served).
    manifest: true,
    rolldownOptions: {
      // chunk-groups.ts: the dashboard's first screen in one chunk instead of some 60 (issue 26).
      output: {
        codeSplitting: {
          groups: [{ name: dashboardChunk, debugName: DASHBOARD_CHUNK, includeDependenciesRecursively: false }],
        },
      },
    },
  },
  server: { proxy },
  preview: { proxy },
}));
