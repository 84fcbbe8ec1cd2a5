import { describe, expect, it } from 'vitest';
import {
  crashedFiles,
  firstLine,
  type PlaywrightReport,
  playwrightSummary,
  type VitestReport,
  vitestSummary,
  withRerun,
} from './test-reports.ts';

const vitest = (overrides: Partial<VitestReport>): VitestReport => ({
  numPassedTests: 0,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  testResults: [],
  ...overrides,
});

const playwright = (overrides: Partial<PlaywrightReport>): PlaywrightReport => ({
  stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0 },
  ...overrides,
});

describe('firstLine', () => {
  it('keeps the first line, without colours, and cuts a long one', () => {
    expect(firstLine('\u001b[31mAssertionError\u001b[39m: expected 200 to be 401\n    at test.ts:1')).toBe(
      'AssertionError: expected 200 to be 401',
    );
    expect(firstLine(undefined)).toBe('');
    expect(firstLine('x'.repeat(300))).toBe(`${'x'.repeat(240)}…`);
  });
});

describe('vitestSummary', () => {
  it('counts passes, failures and skips, and names each failed test with its file and error', () => {
    const summary = vitestSummary(
      'postgres',
      vitest({
        numPassedTests: 2,
        numFailedTests: 1,
        numPendingTests: 1,
        numTodoTests: 1,
        testResults: [
          {
            name: '/repo/apps/server/test/a.test.ts',
            status: 'failed',
            assertionResults: [
              { status: 'passed', fullName: 'a works' },
              {
                status: 'failed',
                fullName: 'a › refuses a revoked key',
                failureMessages: ['AssertionError: expected 200 to be 401\nstack'],
              },
            ],
          },
          { name: '/repo/apps/server/test/b.test.ts', status: 'passed', assertionResults: [{ status: 'passed', fullName: 'b' }] },
        ],
      }),
      1,
      '/repo',
    );
    expect(summary).toEqual({
      passed: 2,
      failed: 1,
      skipped: 2,
      failures: ['postgres: apps/server/test/a.test.ts › a › refuses a revoked key: AssertionError: expected 200 to be 401'],
    });
  });

  it('counts a file that did not load as a failure', () => {
    const summary = vitestSummary(
      'unit',
      vitest({ testResults: [{ name: '/repo/x.test.ts', status: 'failed', message: 'SyntaxError: bad\nmore', assertionResults: [] }] }),
      1,
      '/repo',
    );
    expect(summary.failed).toBe(1);
    expect(summary.failures).toEqual(['unit: x.test.ts failed outside its tests (loading or a hook): SyntaxError: bad']);
  });

  it('counts a non-zero exit with nothing failed in the report as one failure', () => {
    const summary = vitestSummary('unit', vitest({ numPassedTests: 5 }), 1, '/repo');
    expect(summary).toMatchObject({ passed: 5, failed: 1, failures: ['unit: vitest exited with status 1'] });
    expect(vitestSummary('unit', vitest({ numPassedTests: 5 }), 0, '/repo')).toMatchObject({ failed: 0, failures: [] });
  });

  it('counts and names a file whose hook failed, beside a failed test elsewhere', () => {
    const summary = vitestSummary(
      'postgres',
      vitest({
        numPassedTests: 1,
        numFailedTests: 1,
        testResults: [
          {
            name: '/repo/a.test.ts',
            status: 'failed',
            message: 'Error: the server did not start (exited)',
            assertionResults: [{ status: 'skipped', fullName: 'a' }],
          },
          {
            name: '/repo/b.test.ts',
            status: 'failed',
            assertionResults: [
              { status: 'passed', fullName: 'b1' },
              { status: 'failed', fullName: 'b2', failureMessages: ['Error: no'] },
            ],
          },
        ],
      }),
      1,
      '/repo',
    );
    expect(summary).toMatchObject({ passed: 1, failed: 2 });
    expect(summary.failures).toEqual([
      'postgres: a.test.ts failed outside its tests (loading or a hook): Error: the server did not start (exited)',
      'postgres: b.test.ts › b2: Error: no',
    ]);
  });

  it('names the tests a crashed test process left unfinished', () => {
    const report = vitest({
      numPassedTests: 1,
      numPendingTests: 1,
      testResults: [
        {
          name: '/repo/apps/server/src/db/t.test.ts',
          status: 'passed',
          assertionResults: [
            { status: 'passed', fullName: 'first' },
            { status: 'pending', fullName: 'second' },
          ],
        },
      ],
    });
    expect(vitestSummary('postgres', report, 1, '/repo').failures).toEqual([
      'postgres: vitest exited with status 1',
      'postgres: did not run to its end: apps/server/src/db/t.test.ts › second',
    ]);
    // After a clean exit a pending test is only a skipped one.
    expect(vitestSummary('postgres', report, 0, '/repo')).toMatchObject({ failed: 0, skipped: 1, failures: [] });
  });
});

describe('playwrightSummary', () => {
  it('names failed and retried tests by project, file, line and describe titles', () => {
    const summary = playwrightSummary(
      playwright({
        stats: { expected: 3, unexpected: 1, flaky: 1, skipped: 2 },
        suites: [
          {
            title: 'apps/web/e2e/docs.spec.ts',
            suites: [
              {
                title: 'docs tools',
                specs: [
                  {
                    title: 'every table fits',
                    file: 'apps/web/e2e/docs.spec.ts',
                    line: 209,
                    tests: [
                      { projectName: 'desktop', status: 'expected' },
                      { projectName: 'mobile', status: 'unexpected' },
                    ],
                  },
                  { title: 'search', file: 'apps/web/e2e/docs.spec.ts', line: 90, tests: [{ projectName: 'desktop', status: 'flaky' }] },
                ],
              },
            ],
          },
        ],
      }),
      1,
    );
    expect(summary).toEqual({
      passed: 4,
      failed: 1,
      skipped: 2,
      failures: [
        'e2e [mobile]: apps/web/e2e/docs.spec.ts:209 › docs tools › every table fits',
        'e2e [desktop] (passed on retry): apps/web/e2e/docs.spec.ts:90 › docs tools › search',
      ],
    });
  });

  it('counts run-level errors (a web server that did not start) and a bare non-zero exit', () => {
    const errored = playwrightSummary(
      playwright({ errors: [{ message: 'Error: Timed out waiting 60000ms from config.webServer.\nmore' }] }),
      1,
    );
    expect(errored).toMatchObject({ failed: 1, failures: ['e2e: Error: Timed out waiting 60000ms from config.webServer.'] });
    expect(playwrightSummary(playwright({ stats: { expected: 2, unexpected: 0, flaky: 0, skipped: 0 } }), 1)).toMatchObject({
      passed: 2,
      failed: 1,
      failures: ['e2e: Playwright exited with status 1'],
    });
  });
});

describe('crashedFiles and withRerun', () => {
  const crashedRun = vitest({
    numPassedTests: 3,
    testResults: [
      {
        name: '/repo/a.test.ts',
        status: 'passed',
        assertionResults: [
          { status: 'passed', fullName: 'a one' },
          { status: 'passed', fullName: 'a two' },
        ],
      },
      {
        name: '/repo/b.test.ts',
        status: 'passed',
        assertionResults: [
          { status: 'passed', fullName: 'b one' },
          { status: 'pending', fullName: 'b two' },
          { status: 'pending', fullName: 'b three' },
        ],
      },
    ],
  });

  it('names the files whose test process died when nothing failed', () => {
    expect(crashedFiles(crashedRun, 1)).toEqual(['/repo/b.test.ts']);
    expect(crashedFiles(crashedRun, 0)).toEqual([]);
    expect(crashedFiles({ ...crashedRun, numFailedTests: 1 }, 1)).toEqual([]);
    const brokenFile = { name: '/repo/c.test.ts', status: 'failed', message: 'did not load', assertionResults: [] };
    expect(crashedFiles({ ...crashedRun, testResults: [...crashedRun.testResults, brokenFile] }, 1)).toEqual([]);
  });

  it('counts the second run instead of the crashed files’ first results', () => {
    expect(withRerun('unit', crashedRun, ['/repo/b.test.ts'], { passed: 3, failed: 0, skipped: 0, failures: [] })).toEqual({
      passed: 5,
      failed: 0,
      skipped: 0,
      failures: [],
    });
    expect(
      withRerun('unit', crashedRun, ['/repo/b.test.ts'], { passed: 2, failed: 1, skipped: 0, failures: ['unit: b.test.ts › b two: boom'] }),
    ).toEqual({ passed: 4, failed: 1, skipped: 0, failures: ['unit (second run): b.test.ts › b two: boom'] });
  });
});
