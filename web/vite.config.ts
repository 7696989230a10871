import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The server swaps this placeholder for the API address when it serves index.html
// (server/src/web/static.ts); `vite dev` does the same here from API_URL.
const API_URL_PLACEHOLDER = '__ZAPDESK_API_URL__';

function devApiUrl(): Plugin {
  return {
    name: 'zapdesk-dev-api-url',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(API_URL_PLACEHOLDER, process.env.API_URL ?? `http://localhost:${process.env.PORT ?? 8080}`),
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), devApiUrl()],
  server: { port: Number(process.env.WEB_PORT ?? 3000) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The budget (issue 6) is on /login's initial JavaScript: keep the vendor libraries in stable chunks.
    chunkSizeWarningLimit: 600,
  },
});
