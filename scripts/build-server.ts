/**
 * Production server build: bundles apps/server (and the shared workspace package) into
 * plain JavaScript at apps/server/dist/server.js (and the embedded database's worker thread at
 * pglite-worker.js), with npm dependencies left external and
 * the SQL migrations copied beside it. `npm run start:prod` runs it with no TypeScript
 * tooling at runtime.
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'apps/server/dist');

/** Bundle the workspace package (TypeScript sources); keep every npm dependency external. */
const externalDependencies: Plugin = {
  name: 'external-dependencies',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@conductor/shared')) return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      return { path: args.path, external: true };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  // The embedded PGlite's worker thread is a module of its own, loaded beside server.js.
  entryPoints: {
    server: path.join(root, 'apps/server/src/server.ts'),
    'pglite-worker': path.join(root, 'apps/server/src/db/pglite-worker.ts'),
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  legalComments: 'none',
  plugins: [externalDependencies],
  logLevel: 'info',
});
cpSync(path.join(root, 'apps/server/src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
process.stdout.write(`Server bundle written to ${path.relative(root, outdir)}/server.js\n`);
