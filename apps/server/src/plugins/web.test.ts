import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { MALFORMED_URL } from './error-handler.ts';

/** The web app's server side: pages, files, and the addresses that are neither. */
describe('web app serving', () => {
  let dist: string;
  let harness: TestApp;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'conductor-web-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="en"><title>Home</title></html>');
    writeFileSync(path.join(dist, '__spa-fallback.html'), '<!doctype html><html lang="en"><title>App</title></html>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'app-1a2b3c.js'), 'console.log(1);');
    harness = await createTestApp({ WEB_DIST_DIR: dist }, { serveWeb: true });
  });
  afterAll(async () => {
    await harness.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string) => harness.app.inject({ method: 'GET', url });

  it('serves pages, files, and the app for unknown page addresses (it sends them to /)', async () => {
    expect((await get('/')).body).toContain('<title>Home</title>');
    expect((await get('/assets/app-1a2b3c.js')).body).toBe('console.log(1);');
    for (const url of ['/no/such/page', '/pricing.html', '/About.HTM']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<title>App</title>');
    }
  });

  it('answers 404 for a missing file and 400 in the product’s envelope for a malformed address', async () => {
    for (const url of ['/missing.png', '/assets/gone.js', '/assets/']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
    for (const url of ['/%', '/docs/%E0%A4%A', '/%zz', '/api/v1/billing/%']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: { code: 'bad_request', message: MALFORMED_URL } });
    }
    // Under /v1, in the OpenAI envelope.
    expect((await get('/v1/models/%')).json()).toEqual({
      error: { message: MALFORMED_URL, type: 'invalid_request_error', param: null, code: 'bad_request' },
    });
  });

  it('answers a GET to an API path that takes other methods with 405 and Allow, not the app or a 404', async () => {
    // The app's catch-all `GET /*` sees these first; they are API addresses, answered as the API does.
    for (const [url, allow] of [
      ['/v1/chat/completions', 'POST'],
      ['/%76%31/chat/completions', 'POST'],
      ['/api/v1/auth/logout', 'POST'],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(405);
      expect(response.headers.allow, url).toBe(allow);
    }
    expect((await get('/v1/chat/completions')).json()).toEqual({
      error: {
        message: 'GET is not allowed on /v1/chat/completions: use POST.',
        type: 'invalid_request_error',
        param: null,
        code: 'method_not_allowed',
      },
    });
    const head = await harness.app.inject({ method: 'HEAD', url: '/v1/chat/completions' });
    expect([head.statusCode, head.headers.allow]).toEqual([405, 'POST']);
    // Paths no route serves stay 404.
    expect((await get('/v1/no-such-thing')).statusCode).toBe(404);
    expect((await get('/api/v1/no-such-thing')).statusCode).toBe(404);
  });
});
