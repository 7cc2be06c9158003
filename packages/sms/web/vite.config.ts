// Vite build of the SMS console: `packages/sms/web` → `packages/sms/dist/web`, served by the SMS service.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { webUiConfig } from '../../web-kit/vite-config.ts';

export default defineConfig(webUiConfig(fileURLToPath(new URL('.', import.meta.url)), fileURLToPath(new URL('../dist/web', import.meta.url))));
