import { defineConfig } from 'vite';

export default defineConfig({
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/oauth': 'http://localhost:8080',
      '/anonymous': 'http://localhost:8080',
      '/uploads': 'http://localhost:8080',
    },
  },
  build: { outDir: 'dist', sourcemap: false },
});
