/**
 * Lint rules biome cannot express: configuration is read only in config/env.ts (and the
 * entry points that hand `process.env` to it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const allowed = new Set(['apps/server/src/config/env.ts', 'apps/server/src/server.ts']);
const problems: string[] = [];

function walk(directory: string): void {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') walk(full);
      continue;
    }
    if (!/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
    const relative = path.relative(root, full);
    if (allowed.has(relative)) continue;
    readFileSync(full, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (line.includes('process.env')) problems.push(`${relative}:${index + 1}: read configuration through config/env.ts`);
      });
  }
}

walk(path.join(root, 'apps/server/src'));
walk(path.join(root, 'packages/shared/src'));
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
