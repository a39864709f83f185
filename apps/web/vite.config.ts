import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

export default defineConfig(({ command }) => {
  // A build is always the production build, even when started from a test runner that set
  // NODE_ENV=test (that would ship React's development runtime, three times larger).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    // Vite 8 compiles TSX with Oxc; the automatic runtime needs no React import in components.
    oxc: { jsx: { runtime: 'automatic' } },
    // Every text file of the build also as .br and .gz, which the server sends precompressed.
    plugins: [precompress()],
    server: {
      proxy: {
        '/api': 'http://localhost:8080',
        '/oauth': 'http://localhost:8080',
        '/anonymous': 'http://localhost:8080',
        '/uploads': 'http://localhost:8080',
      },
    },
    build: {
      outDir: 'dist',
      sourcemap: false,
      chunkSizeWarningLimit: 900,
      rolldownOptions: {
        onwarn(warning, warn) {
          // Ant Design marks its modules "use client"; meaningless in a browser-only bundle.
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          warn(warning);
        },
      },
    },
  };
});
