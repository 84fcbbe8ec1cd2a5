/**
 * `npm test`: every suite (unit and component, server integration on PGlite and on the
 * real PostgreSQL, browser end-to-end), then one plain closing line `N passed, N failed`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  crashedFiles,
  type PlaywrightReport,
  playwrightSummary,
  type SuiteSummary,
  type VitestReport,
  vitestSummary,
  withRerun,
} from './test-reports.ts';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp', `test-${process.pid}`);
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const results: ({ name: string } & Omit<SuiteSummary, 'failures'>)[] = [];
/** Failed tests by name, repeated after the totals: CI logs keep only their tail. */
const failures: string[] = [];
/** Files run a second time because their test process died, printed with the totals. */
const reruns: string[] = [];

function record(name: string, { failures: named, ...counts }: SuiteSummary): void {
  results.push({ name, ...counts });
  failures.push(...named);
}
/** A step that failed as a whole: one failure, with why. */
const broken = (name: string, why: string) => record(name, { passed: 0, failed: 1, skipped: 0, failures: [`${name}: ${why}`] });

function run(command: string, args: string[], env: Record<string, string> = {}): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    process.stdout.write('Chromium is missing: installing Debian chromium with apt-get...\n');
    if (run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']) !== 0) {
      run('apt-get', ['update']);
      run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
    }
  }
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(
      `Browser tests need Chromium at ${CHROMIUM}. Install it with \`sudo apt-get install -y chromium\` ` +
        '(Debian) or set CHROMIUM_PATH to a Chromium binary.\n',
    );
    process.exit(1);
  }
}

function vitestSuite(name: string, args: string[], env: Record<string, string> = {}): void {
  const output = path.join(tmp, `vitest-${name}.json`);
  const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${output}`, ...args], env);
  if (!existsSync(output)) {
    broken(name, `vitest wrote no report (exit status ${status})`);
    return;
  }
  const report = JSON.parse(readFileSync(output, 'utf8')) as VitestReport;
  const crashed = crashedFiles(report, status);
  if (crashed.length === 0) {
    record(name, vitestSummary(name, report, status, root));
    return;
  }
  // A test process died with nothing failed (V8's abort on WebAssembly code churn, nodejs/node#64500):
  // its files run once more, on their own, and their second run counts. Said here and in the summary.
  const files = crashed.map((file) => path.relative(root, file));
  process.stdout.write(`\n== ${name}: a test process died; running its files again: ${files.join(', ')} ==\n`);
  const rerunOutput = path.join(tmp, `vitest-${name}-rerun.json`);
  const rerunStatus = run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${rerunOutput}`, ...args, ...files],
    env,
  );
  if (!existsSync(rerunOutput)) {
    record(name, vitestSummary(name, report, status, root));
    return;
  }
  const rerun = vitestSummary(name, JSON.parse(readFileSync(rerunOutput, 'utf8')) as VitestReport, rerunStatus, root);
  reruns.push(`${name}: ran again after its test process died: ${files.join(', ')} (${rerun.failed === 0 ? 'passed' : 'failed'})`);
  record(name, withRerun(name, report, crashed, rerun));
}

function playwrightSuite(): void {
  const output = path.join(tmp, 'playwright.json');
  // The two servers' data directories (playwright.config.ts), removed once they have stopped.
  const dataDir = path.join(os.tmpdir(), `conductor-e2e-${process.pid}-${Date.now()}`);
  const status = run('npx', ['playwright', 'test', '-c', 'apps/web/playwright.config.ts', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: output,
    E2E_DATA_DIR: dataDir,
  });
  for (const directory of [dataDir, `${dataDir}-waitlist`]) rmSync(directory, { recursive: true, force: true });
  if (!existsSync(output)) {
    broken('e2e', `Playwright wrote no report (exit status ${status})`);
    return;
  }
  record('e2e', playwrightSummary(JSON.parse(readFileSync(output, 'utf8')) as PlaywrightReport, status));
}

function check(name: string, script: string): void {
  process.stdout.write(`\n== ${name} ==\n`);
  const status = run('npm', ['run', '--silent', script]);
  if (status === 0) record(name, { passed: 1, failed: 0, skipped: 0, failures: [] });
  else broken(name, `\`npm run ${script}\` exited with status ${status}`);
}

ensureChromium();
check('lint', 'lint');
check('typecheck', 'typecheck');
process.stdout.write('\n== Building the web app ==\n');
if (run('npm', ['run', 'build', '-w', '@conductor/web']) !== 0) {
  broken('build', 'the web app did not build, so no tests ran');
} else {
  process.stdout.write('\n== Unit, component and server tests (embedded PGlite) ==\n');
  vitestSuite('unit', []);
  process.stdout.write('\n== Server tests against PostgreSQL and Redis ==\n');
  vitestSuite('postgres', ['--project', 'server'], {
    TEST_DATABASE: 'postgres',
    TEST_POSTGRES_URL: POSTGRES_URL,
    TEST_REDIS_URL: REDIS_URL,
  });
  process.stdout.write('\n== Browser end-to-end tests (Chromium) ==\n');
  playwrightSuite();
}

const total = results.reduce(
  (sum, suite) => ({ passed: sum.passed + suite.passed, failed: sum.failed + suite.failed, skipped: sum.skipped + suite.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
);
process.stdout.write('\n');
if (failures.length > 0) {
  process.stdout.write('Failed:\n');
  for (const line of failures) process.stdout.write(`  ${line}\n`);
  process.stdout.write('\n');
}
if (reruns.length > 0) {
  process.stdout.write('Run again:\n');
  for (const line of reruns) process.stdout.write(`  ${line}\n`);
  process.stdout.write('\n');
}
for (const suite of results) {
  process.stdout.write(`  ${suite.name.padEnd(10)} ${suite.passed} passed, ${suite.failed} failed, ${suite.skipped} skipped\n`);
}
process.stdout.write(`${total.passed} passed, ${total.failed} failed\n`);
process.exit(total.failed > 0 ? 1 : 0);
