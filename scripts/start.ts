/**
 * `npm start`: builds the web app when the build is missing or older than its sources,
 * then serves everything from this same process (see apps/server/src/server.ts), so a stop
 * signal sent to it (Ctrl+C, `kill`, a supervisor's SIGTERM) reaches the server's own graceful
 * shutdown instead of leaving a child behind holding the port.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const marker = path.join(root, 'apps/web/build/client/__spa-fallback.html');

function newestMtime(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sources = ['apps/web/src', 'apps/web/public', 'packages/shared/src'].map((dir) => path.join(root, dir));
const stale = !existsSync(marker) || Math.max(...sources.map(newestMtime)) > statSync(marker).mtimeMs;
if (stale) {
  process.stdout.write('Building the web app...\n');
  const build = spawnSync('npm', ['run', 'build', '-w', '@conductor/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

process.chdir(root);
await import(pathToFileURL(path.join(root, 'apps/server/src/server.ts')).href);
