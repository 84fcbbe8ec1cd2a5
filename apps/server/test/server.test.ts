import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

describe('server foundation', () => {
  let harness: TestApp;

  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  it('answers GET /v1/health from real state', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/v1/health' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('operational');
    expect(body.checks.database).toBe('operational');
    // No REDIS_URL: nothing to report on Redis.
    expect(body.checks).not.toHaveProperty('redis');
    expect(body.providers.available).toBe(0);
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('reports a degraded service when the database is unreachable', async () => {
    const other = await createTestApp();
    const realPing = other.app.context.database.ping;
    other.app.context.database.ping = async () => false;
    const response = await other.app.inject({ method: 'GET', url: '/v1/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'degraded', checks: { database: 'outage' } });
    other.app.context.database.ping = realPing;
    await other.close();
  });

  it('counts providers configured with hosted keys', async () => {
    const other = await createTestApp({ OPENAI_API_KEY: 'sk-test', MISTRAL_API_KEY: 'mistral-test-key' });
    const body = (await other.app.inject({ method: 'GET', url: '/v1/health' })).json();
    expect(body.providers).toMatchObject({ available: 2, configured: ['openai', 'mistral'] });
    await other.close();
  });

  it('answers a signed-out session', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ isAuthenticated: false, user: null });
  });

  it('answers unknown API paths with 404 in the right envelope', async () => {
    const portal = await harness.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(portal.statusCode).toBe(404);
    expect(portal.json().error.code).toBe('not_found');
    const publicApi = await harness.app.inject({ method: 'POST', url: '/v1/nope', payload: {} });
    expect(publicApi.statusCode).toBe(404);
    expect(publicApi.json().error).toMatchObject({ type: 'not_found_error', param: null });
  });

  it('survives malformed JSON on every endpoint with a 400', async () => {
    const methods = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
    const urls = collectRoutes(harness.app.printRoutes({ commonPrefix: false }));
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      for (const method of methods) {
        const response = await harness.app.inject({
          method,
          url,
          headers: { 'content-type': 'application/json' },
          payload: '{"email": "a@b.c",',
        });
        expect(response.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${method} ${url}`).toBeLessThan(500);
      }
    }
  });
});

/** Concrete URLs for every registered route (parameters filled with a placeholder). */
export function collectRoutes(tree: string): string[] {
  return [
    ...new Set(
      tree
        .split('\n')
        .map(
          (line) =>
            line
              .replace(/^[\s│├└─]+/, '')
              .split(' (')[0]
              ?.trim() ?? '',
        )
        .filter((url) => url.startsWith('/'))
        .map((url) => url.replace(/:[^/]+/g, 'x').replace(/\*$/, 'anything')),
    ),
  ];
}

describe('server process', () => {
  const serverEntry = path.resolve(import.meta.dirname, '../src/server.ts');

  it('stops with a message naming the variable when config is wrong', async () => {
    const { code, stderr } = await runServer({ PORT: 'abc' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/PORT/);
    expect(stderr).toMatch(/Invalid configuration/);
    // The drain is part of the grace period, so it must be shorter.
    const drain = await runServer({ SHUTDOWN_DRAIN_MS: '30000', SHUTDOWN_GRACE_MS: '25000' });
    expect(drain.code).toBe(1);
    expect(drain.stderr).toMatch(/SHUTDOWN_DRAIN_MS: must be less than SHUTDOWN_GRACE_MS/);
  });

  it('serves on PORT, and on SIGTERM stops being ready, drains, and exits with 0', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'conductor-sigterm-'));
    const port = await freePort();
    const child = spawn(process.execPath, [serverEntry], {
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        DEMO_ACCOUNT: 'off',
        NODE_ENV: 'test',
        SHUTDOWN_DRAIN_MS: '1500',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Start-up (type stripping, migrations) can take long on a loaded machine: the test allows it.
    const deadline = Date.now() + 75_000;
    let health: Response | undefined;
    while (Date.now() < deadline && !health) {
      health = await fetch(`http://127.0.0.1:${port}/v1/health`).catch(() => undefined);
      if (!health) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(health?.status).toBe(200);
    expect(await health?.json()).toMatchObject({ status: 'operational' });
    const probe = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).then((response) => response.status);
    expect(await probe('/livez')).toBe(200);
    expect(await probe('/readyz')).toBe(200);
    child.kill('SIGTERM');
    // During the drain the instance still answers, but is no longer ready.
    await expect.poll(() => probe('/readyz'), { timeout: 1_000, interval: 50 }).toBe(503);
    expect(await probe('/livez')).toBe(200);
    expect(await exited).toBe(0);
    expect(output).toContain('shutting down');
    rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);

  /** A port the system just handed out and released: free for the child to take. */
  function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
  }

  function runServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [serverEntry], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += String(chunk);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
  }
});
