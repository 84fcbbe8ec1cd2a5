/**
 * `npm run audit:prod`: the dependency gate for production. Runs
 * `npm audit --omit=dev --audit-level=high --json` and says plainly what happened:
 *
 *   exit 0  audited: no high or critical advisory in production dependencies
 *   exit 1  audited: high or critical advisories found (listed)
 *   exit 2  npm audit could not run or answered something unreadable
 *   exit 3  the registry's audit endpoint is unavailable (e.g. a mirror answering 405):
 *           nothing was audited, which is not a pass
 *
 * `--report <file>` reads a saved `npm audit --json` report instead of calling the registry
 * (for an audit run on another machine, and to check this script's verdicts).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const BLOCKING = new Set(['high', 'critical']);

interface Advisory {
  severity: string;
  range?: string;
  via?: unknown[];
  fixAvailable?: unknown;
}

interface AuditReport {
  auditReportVersion?: number;
  vulnerabilities?: Record<string, Advisory>;
  metadata?: { vulnerabilities?: Record<string, number>; dependencies?: { prod?: number; total?: number } };
  /** Present when npm could not audit (registry error). */
  statusCode?: number;
  message?: string;
  error?: { code?: string; summary?: string; detail?: string };
}

export type Verdict =
  | { kind: 'clean'; counts: Record<string, number>; dependencies: number | undefined }
  | { kind: 'vulnerable'; blocking: { name: string; severity: string; range: string; advisories: string[] }[] }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'failed'; reason: string };

export function judge(stdout: string, stderr: string): Verdict {
  let report: AuditReport;
  try {
    report = JSON.parse(stdout) as AuditReport;
  } catch {
    if (/audit endpoint returned an error|E40[0-9]|E5[0-9][0-9]/.test(stderr)) {
      return {
        kind: 'unavailable',
        reason:
          stderr
            .split('\n')
            .find((line) => /audit|E\d{3}/.test(line))
            ?.trim() ?? 'audit endpoint error',
      };
    }
    return {
      kind: 'failed',
      reason: `npm audit printed no JSON report${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`,
    };
  }
  if (report.statusCode !== undefined || report.error) {
    const status = report.statusCode !== undefined ? `HTTP ${report.statusCode}` : (report.error?.code ?? 'error');
    return { kind: 'unavailable', reason: `${status}: ${report.message ?? report.error?.summary ?? 'no detail'}` };
  }
  if (!report.vulnerabilities || !report.metadata?.vulnerabilities) {
    return { kind: 'failed', reason: 'the report has no "vulnerabilities" section (unknown npm audit format)' };
  }
  const blocking = Object.entries(report.vulnerabilities)
    .filter(([, advisory]) => BLOCKING.has(advisory.severity))
    .map(([name, advisory]) => ({
      name,
      severity: advisory.severity,
      range: advisory.range ?? '',
      advisories: (advisory.via ?? []).map((via) =>
        typeof via === 'string'
          ? `via ${via}`
          : `${(via as { title?: string }).title ?? 'advisory'} ${(via as { url?: string }).url ?? ''}`.trim(),
      ),
    }));
  if (blocking.length > 0) return { kind: 'vulnerable', blocking };
  return { kind: 'clean', counts: report.metadata.vulnerabilities, dependencies: report.metadata.dependencies?.prod };
}

function runAudit(): { stdout: string; stderr: string } {
  const result = spawnSync('npm', ['audit', '--omit=dev', '--audit-level=high', '--json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  if (result.error) return { stdout: '', stderr: String(result.error.message) };
  return { stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

function main(): number {
  const reportIndex = process.argv.indexOf('--report');
  const reportFile = reportIndex === -1 ? undefined : process.argv[reportIndex + 1];
  const { stdout, stderr } = reportFile ? { stdout: readFileSync(reportFile, 'utf8'), stderr: '' } : runAudit();
  const verdict = judge(stdout, stderr);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  switch (verdict.kind) {
    case 'clean': {
      const counts = Object.entries(verdict.counts)
        .filter(([severity]) => severity !== 'total')
        .map(([severity, count]) => `${count} ${severity}`)
        .join(', ');
      out(
        `audit:prod: no high or critical advisories in production dependencies${verdict.dependencies ? ` (${verdict.dependencies} packages)` : ''}. All findings: ${counts}.`,
      );
      return 0;
    }
    case 'vulnerable':
      out(`audit:prod: ${verdict.blocking.length} production package(s) with high or critical advisories:`);
      for (const entry of verdict.blocking) out(`  - ${entry.name} ${entry.range} [${entry.severity}] ${entry.advisories.join('; ')}`);
      out('Upgrade or replace them (npm audit fix --omit=dev shows what can be fixed automatically).');
      return 1;
    case 'unavailable':
      out(`audit:prod: audit endpoint unavailable (${verdict.reason}). Nothing was audited: this is NOT a pass.`);
      out('Run it where the public npm registry is reachable, or pass a saved report: npm run audit:prod -- --report audit.json');
      return 3;
    case 'failed':
      out(`audit:prod: npm audit failed: ${verdict.reason}`);
      return 2;
  }
}

if (import.meta.main) process.exit(main());
