/**
 * Reading the JSON reports of vitest and Playwright for `npm test`: each suite's counts, and every
 * failed test by name with the first line of its error, printed again after the totals because a
 * CI log is often kept only by its tail.
 */
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export interface SuiteSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** One line per failed test (or file that did not load, or run-level error). */
  failures: string[];
}

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { status: string; fullName: string; failureMessages?: string[] }[];
  }[];
}

interface PlaywrightSuite {
  title: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; file: string; line: number; tests: { projectName: string; status: string }[] }[];
}

export interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors?: { message?: string }[];
  suites?: PlaywrightSuite[];
}

/** The first line of an error message, short enough for a summary (ANSI colours stripped). */
export function firstLine(message: string | undefined): string {
  const line =
    stripVTControlCharacters(message ?? '')
      .trim()
      .split('\n')[0] ?? '';
  return line.length > 240 ? `${line.slice(0, 240)}…` : line;
}

/** A run that exited non-zero with nothing failed in its report counts as one failure, named. */
function failedCount(counted: number, exitStatus: number, failures: string[], run: string): number {
  if (exitStatus === 0 || counted > 0) return counted;
  failures.push(`${run} exited with status ${exitStatus}`);
  return 1;
}

/**
 * A vitest run's counts. A test file that failed outside its tests (it did not load, or a hook
 * failed) counts as a failure; so does a run that exited non-zero with nothing failed in its report.
 */
export function vitestSummary(name: string, report: VitestReport, exitStatus: number, root: string): SuiteSummary {
  const failures: string[] = [];
  // A test process that died (a native crash) leaves its file's remaining tests pending.
  const unfinished: string[] = [];
  let brokenFiles = 0;
  for (const file of report.testResults) {
    const where = path.relative(root, file.name);
    let failedHere = 0;
    for (const test of file.assertionResults) {
      if (test.status === 'pending') unfinished.push(`${name}: did not run to its end: ${where} › ${test.fullName}`);
      if (test.status !== 'failed') continue;
      failedHere += 1;
      failures.push(`${name}: ${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (file.status === 'failed' && failedHere === 0) {
      brokenFiles += 1;
      failures.push(`${name}: ${where} failed outside its tests (loading or a hook): ${firstLine(file.message)}`);
    }
  }
  const failed = failedCount(report.numFailedTests + brokenFiles, exitStatus, failures, `${name}: vitest`);
  if (exitStatus !== 0) failures.push(...unfinished);
  return { passed: report.numPassedTests, failed, skipped: report.numPendingTests + report.numTodoTests, failures };
}

/**
 * The files to run again because their test process died, not because a test failed: the run
 * exited non-zero, nothing failed and no file broke, yet some files left tests unfinished (a
 * native crash of the process running them, such as V8's JIT-page abort on WebAssembly code,
 * nodejs/node#64500). Empty whenever anything else went wrong.
 */
export function crashedFiles(report: VitestReport, exitStatus: number): string[] {
  if (exitStatus === 0 || report.numFailedTests > 0) return [];
  if (report.testResults.some((file) => file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'pending')))
    return [];
  return report.testResults.filter((file) => file.assertionResults.some((test) => test.status === 'pending')).map((file) => file.name);
}

/**
 * A run's counts with the crashed files' results replaced by those of their second run: the
 * first run's passes outside those files plus the second run's summary (its failures are the
 * suite's failures). The second run is named in the failures list only if it failed too.
 */
export function withRerun(name: string, first: VitestReport, files: string[], rerun: SuiteSummary): SuiteSummary {
  const crashed = new Set(files);
  let passedElsewhere = 0;
  let skippedElsewhere = 0;
  for (const file of first.testResults) {
    if (crashed.has(file.name)) continue;
    for (const test of file.assertionResults) {
      if (test.status === 'passed') passedElsewhere += 1;
      else if (test.status === 'skipped' || test.status === 'todo') skippedElsewhere += 1;
    }
  }
  return {
    passed: passedElsewhere + rerun.passed,
    failed: rerun.failed,
    skipped: skippedElsewhere + rerun.skipped,
    failures: rerun.failures.map((line) => line.replace(`${name}: `, `${name} (second run): `)),
  };
}

/** A Playwright run's counts; a test that passed only on a retry is named too (and counts as passed). */
export function playwrightSummary(report: PlaywrightReport, exitStatus: number): SuiteSummary {
  const failures: string[] = [];
  const visit = (suites: PlaywrightSuite[], titles: string[], depth: number) => {
    for (const suite of suites) {
      // The outermost suites are the files, titled with the path each line names already.
      const inner = depth > 0 && suite.title ? [...titles, suite.title] : titles;
      for (const spec of suite.specs ?? []) {
        const title = `${spec.file}:${spec.line} › ${[...inner, spec.title].join(' › ')}`;
        for (const test of spec.tests) {
          if (test.status === 'unexpected') failures.push(`e2e [${test.projectName}]: ${title}`);
          else if (test.status === 'flaky') failures.push(`e2e [${test.projectName}] (passed on retry): ${title}`);
        }
      }
      visit(suite.suites ?? [], inner, depth + 1);
    }
  };
  visit(report.suites ?? [], [], 0);
  const errors = report.errors ?? [];
  for (const error of errors) failures.push(`e2e: ${firstLine(error.message)}`);
  const failed = failedCount(report.stats.unexpected + errors.length, exitStatus, failures, 'e2e: Playwright');
  return { passed: report.stats.expected + report.stats.flaky, failed, skipped: report.stats.skipped, failures };
}
