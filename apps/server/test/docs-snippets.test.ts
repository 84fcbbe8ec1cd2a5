import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_EXAMPLES, DOCS_API_BASE_URL, DOCS_API_KEY_VARIABLE } from '@conductor/shared/constants/api-examples';
import { createSandboxKey } from '../src/modules/support/sandbox-key.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Every JavaScript, Python and cURL snippet of the docs that calls the API runs against a live
 * server (a real listener) with a sandbox test key, so the docs cannot drift from the product.
 * Python snippets run with the official `openai` package, installed by pip into a virtual
 * environment kept under node_modules/.cache (made once per install).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const CONTENT = path.join(ROOT, 'apps/web/src/features/docs/content');
const run = promisify(execFile);

interface Snippet {
  id: string;
  kind: 'javascript' | 'python' | 'curl';
  code: string;
  expectError: boolean;
}

/** Fenced blocks of a Markdown file: ```lang flags\n…\n``` (the same fences the docs compiler reads). */
function snippetsOf(file: string): Snippet[] {
  const source = readFileSync(path.join(CONTENT, file), 'utf8');
  const snippets: Snippet[] = [];
  for (const match of source.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const [lang = '', ...flags] = (match[1] ?? '').trim().split(/\s+/);
    const code = match[2] ?? '';
    if (flags.includes('norun')) continue;
    const line = source.slice(0, match.index).split('\n').length;
    const id = `${file}:${line}`;
    if (['js', 'javascript', 'mjs'].includes(lang))
      snippets.push({ id, kind: 'javascript', code, expectError: flags.includes('expect-error') });
    else if (['python', 'py'].includes(lang)) snippets.push({ id, kind: 'python', code, expectError: flags.includes('expect-error') });
    else if (['bash', 'sh', 'shell'].includes(lang) && /(^|\s)curl\s/.test(code)) {
      snippets.push({ id, kind: 'curl', code, expectError: flags.includes('expect-error') });
    }
  }
  return snippets;
}

const PYTHON_ENV = path.join(ROOT, 'node_modules/.cache/conductor-docs-python');
const PYTHON = path.join(PYTHON_ENV, 'bin/python');

/** A virtual environment with the `openai` package (pip's own configuration names the index). */
async function pythonWithOpenAi(): Promise<string> {
  const ready =
    existsSync(PYTHON) &&
    (await run(PYTHON, ['-c', 'import openai']).then(
      () => true,
      () => false,
    ));
  if (!ready) {
    await run('python3', ['-m', 'venv', '--clear', PYTHON_ENV], { timeout: 60_000 });
    // No retries: an index this machine cannot reach (PyPI itself, offline) fails at once and
    // pip goes on with the ones it can (pip.conf's extra indexes).
    const flags = ['--quiet', '--disable-pip-version-check', '--retries', '0', '--timeout', '15'];
    await run(PYTHON, ['-m', 'pip', 'install', ...flags, 'openai'], { timeout: 240_000 });
  }
  return PYTHON;
}

const SNIPPETS = readdirSync(CONTENT)
  .filter((file) => file.endsWith('.md'))
  .sort()
  .flatMap(snippetsOf);

describe('docs snippets', () => {
  let test: TestApp;
  let origin: string;
  let key: string;
  // Built when the first Python snippet runs, so the JavaScript and cURL snippets do not depend on
  // pip reaching a package index.
  let python: Promise<string> | undefined;
  const pythonInterpreter = (): Promise<string> => {
    python ??= pythonWithOpenAi();
    return python;
  };

  beforeAll(async () => {
    test = await createTestApp();
    const address = await test.app.listen({ host: '127.0.0.1', port: 0 });
    origin = address.replace('localhost', '127.0.0.1');
    // Enterprise: 1,000 requests per minute leaves room for every snippet in one minute.
    ({ key } = await createSandboxKey(test.app, 'enterprise'));
  });
  afterAll(async () => test?.close());

  it('finds the JavaScript, Python and cURL snippets that call the API', () => {
    expect(SNIPPETS.filter((snippet) => snippet.kind === 'javascript').length).toBeGreaterThanOrEqual(20);
    expect(SNIPPETS.filter((snippet) => snippet.kind === 'python').length).toBeGreaterThanOrEqual(10);
    expect(SNIPPETS.filter((snippet) => snippet.kind === 'curl').length).toBeGreaterThanOrEqual(20);
    for (const snippet of SNIPPETS) expect(snippet.code, snippet.id).toContain(DOCS_API_BASE_URL);
  });

  it.each(SNIPPETS.map((snippet) => [snippet.id, snippet] as const))(
    '%s runs against a live server',
    async (_id, snippet) => {
      const code = snippet.code.replaceAll(DOCS_API_BASE_URL, `${origin}/v1`);
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', [DOCS_API_KEY_VARIABLE]: key };
      const result =
        snippet.kind === 'javascript'
          ? await run(process.execPath, ['--input-type=module', '--eval', code], { cwd: ROOT, env, timeout: 30_000 })
          : snippet.kind === 'python'
            ? await run(await pythonInterpreter(), ['-c', code], { cwd: ROOT, env, timeout: 30_000 })
            : await run('bash', ['-eo', 'pipefail', '-c', code], { cwd: ROOT, env, timeout: 30_000 });
      expect(result.stdout.trim(), 'prints something').not.toBe('');
      if (snippet.kind === 'curl') {
        // A cURL call that fails still exits 0: the answer must be a success body (or the expected error envelope).
        const isError = /^\s*\{\s*"error"\s*:/m.test(result.stdout) || /^HTTP\/[\d.]+ [45]\d\d/m.test(result.stdout);
        expect(isError, result.stdout.slice(0, 500)).toBe(snippet.expectError);
      } else {
        expect(result.stderr, 'writes nothing to stderr').toBe('');
      }
      // The first Python snippet also builds the virtual environment (pip, up to 4 minutes).
    },
    300_000,
  );

  it.each(Object.entries(API_EXAMPLES))('API reference example %s succeeds', async (operation, example) => {
    const [method = 'GET', url = '/'] = operation.split(' ');
    const response = await fetch(`${origin}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(example.body ? { 'content-type': 'application/json' } : {}), ...example.headers },
      ...(example.body
        ? { body: JSON.stringify({ ...example.body, ...(url === '/v1/waitlist' ? { email: `docs-${Date.now()}@example.com` } : {}) }) }
        : {}),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
  });
});
