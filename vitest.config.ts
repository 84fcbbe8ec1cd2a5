import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { docsPlugin } from './apps/web/src/features/docs/compile/vite-plugin';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'scripts',
          root: './scripts',
          include: ['*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // `*.pg.test.ts` need real PostgreSQL and Redis (two processes cannot share an embedded
          // PGlite): they run in the PostgreSQL pass of `npm test` (TEST_DATABASE=postgres).
          exclude: ['**/node_modules/**', ...(process.env.TEST_DATABASE === 'postgres' ? [] : ['**/*.pg.test.ts'])],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        // The docs compiler turns the docs' Markdown into modules, as in the web build.
        plugins: [docsPlugin()],
        resolve: { alias: { '~': path.resolve(import.meta.dirname, 'apps/web/src') } },
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['./src/test/setup.ts'],
        },
      },
    ],
  },
});
