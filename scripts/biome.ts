/**
 * Runs Biome's native binary. The registry mirror here carries only the linux-x64 build, so
 * the project depends on that package (optional) rather than on the `@biomejs/biome` wrapper,
 * whose other platform packages make `npm ci` fail.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const binary = path.resolve(import.meta.dirname, `../node_modules/@biomejs/cli-${process.platform}-${process.arch}/biome`);
if (!existsSync(binary)) {
  process.stderr.write(`Biome is not installed for ${process.platform}-${process.arch}; skipping lint.\n`);
  process.exit(0);
}
const result = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
process.exit(result.status ?? 1);
