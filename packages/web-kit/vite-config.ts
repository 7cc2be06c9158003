// The Vite configuration every UI builds with: React, output into the service's dist/web, no source maps shipped.
import react from '@vitejs/plugin-react';
import type { UserConfig } from 'vite';

/** The configuration of the UI whose Vite root (index.html) is `root`, built into `outDir`. */
export function webUiConfig(root: string, outDir: string): UserConfig {
  return {
    root,
    base: '/',
    plugins: [react()],
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      // .vite/manifest.json: which chunks and CSS each page's module needs, so the service can preload them with the page's HTML.
      manifest: true,
      // The canvas chunk is the largest and is loaded only on the builder page.
      chunkSizeWarningLimit: 600,
      reportCompressedSize: false,
    },
  };
}
