import { defineConfig } from 'vite';

// The dashboard is served by the API process (src/api/web-ui.ts): hashed files under /assets.
const apiOrigin = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    // ECharts alone is ~600 kB minified; it gets a chunk of its own, cached across releases of the app code.
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // React Query marks its modules "use client" (for server components); meaningless in this bundle.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
      output: {
        codeSplitting: { groups: [{ name: 'echarts', test: /node_modules[\\/](echarts|zrender)/ }, { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack)/ }] },
      },
    },
  },
  // The API the live-reload server forwards to: the one `npm start` runs with the same PORT.
  server: { proxy: { '/v1': apiOrigin, '/auth': apiOrigin } },
});
