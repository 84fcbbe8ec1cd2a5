import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { API_EXAMPLES } from '@conductor/shared/constants/api-examples';
import { buildApp } from '../../app.ts';
import { parseEnv } from '../../config/env.ts';
import { createSandboxKey } from './sandbox-key.ts';

export interface CapturedExample {
  status: number;
  body: unknown;
}

export interface ApiReferenceSource {
  document: Record<string, unknown>;
  /** `METHOD /path` → the answer the server gave to the curated example request. */
  examples: Record<string, CapturedExample>;
}

/** Sends every curated example (API_EXAMPLES) with a sandbox key and records the answers. */
export async function captureExamples(app: FastifyInstance, key: string): Promise<Record<string, CapturedExample>> {
  const captured: Record<string, CapturedExample> = {};
  for (const [operation, example] of Object.entries(API_EXAMPLES)) {
    const [method = 'GET', url = '/'] = operation.split(' ');
    const response = await app.inject({
      method: method as 'GET' | 'POST',
      url,
      headers: { authorization: `Bearer ${key}`, ...(example.body ? { 'content-type': 'application/json' } : {}), ...example.headers },
      ...(example.body ? { payload: example.body } : {}),
    });
    let body: unknown = response.body;
    try {
      body = response.json();
    } catch {
      // Not JSON (e.g. a stream): keep the text.
    }
    captured[operation] = { status: response.statusCode, body };
  }
  return captured;
}

/**
 * The OpenAPI document exactly as a running server serves it, and the real answers to the
 * curated examples, produced without a listener (in-memory database, no web build, no
 * schedulers). The web build runs this to prerender the API reference page, so the page
 * cannot drift from GET /v1/openapi.json.
 */
export async function generateApiReferenceSource(): Promise<ApiReferenceSource> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'conductor-openapi-'));
  try {
    const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DEMO_ACCOUNT: 'off', HEALTH_CHECK_SCHEDULER: 'off' });
    const app = await buildApp({ env, inMemoryDatabase: true, serveWeb: false, logger: false });
    try {
      await app.ready();
      const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
      if (response.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${response.statusCode}`);
      const { key } = await createSandboxKey(app);
      return { document: response.json(), examples: await captureExamples(app, key) };
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `node openapi-document.ts` prints the reference source as JSON (used by the web build).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(await generateApiReferenceSource()));
}
