// The Vite configuration every UI builds with: React, output into the service's dist/web, no source maps shipped.
import react from '@vitejs/plugin-react';
import type { Plugin, UserConfig } from 'vite';

/**
 * The page every UI is served in, declared once: a UI's `index.html` holds
 * only what differs (its `<title>` and its entry script), and this wraps it in
 * the document (charset, viewport, the service's own favicon, the `#root` the
 * app mounts into) before Vite reads its scripts.
 */
export function pageFrame(): Plugin {
  return {
    name: 'switchboard-page-frame',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        const title = /<title>[\s\S]*?<\/title>/.exec(html)?.[0] ?? '<title>Switchboard</title>';
        const body = html.replace(title, '').trim();
        return [
          '<!doctype html>',
          '<html lang="en">',
          '  <head>',
          '    <meta charset="UTF-8" />',
          '    <meta name="viewport" content="width=device-width, initial-scale=1.0" />',
          '    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
          `    ${title}`,
          '  </head>',
          '  <body>',
          '    <div id="root"></div>',
          `    ${body}`,
          '  </body>',
          '</html>',
          '',
        ].join('\n');
      },
    },
  };
}

/** The configuration of the UI whose Vite root (index.html) is `root`, built into `outDir`. */
export function webUiConfig(root: string, outDir: string): UserConfig {
  return {
    root,
    base: '/',
    plugins: [pageFrame(), react()],
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
