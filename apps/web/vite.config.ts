import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', manifest: true },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/forgotpassword': 'http://localhost:3000',
      '/checkout': 'http://localhost:3000',
      '/sandbox': 'http://localhost:3000',
      '/pp': 'http://localhost:3000',
      '/chat': { target: 'http://localhost:3000', ws: true },
    },
  },
});
