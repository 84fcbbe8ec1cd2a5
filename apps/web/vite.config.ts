import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { docsPlugin } from './src/features/docs/compile/vite-plugin';

export default defineConfig({
  plugins: [docsPlugin(), tailwindcss(), reactRouter()],
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/v1': 'http://127.0.0.1:8080', '/oidc': 'http://127.0.0.1:8080' } },
  build: { assetsInlineLimit: 0 },
});
