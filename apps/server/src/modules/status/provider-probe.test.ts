import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../config/env.ts';
import { classifyProbe, probeProvider, probeTarget } from './provider-probe.ts';

describe('provider probe classification', () => {
  it.each([
    [{ kind: 'response', status: 200, latencyMs: 120 }, 'operational'],
    [{ kind: 'response', status: 404, latencyMs: 120 }, 'operational'],
    [{ kind: 'response', status: 200, latencyMs: 4_000 }, 'degraded'],
    [{ kind: 'response', status: 429, latencyMs: 50 }, 'degraded'],
    [{ kind: 'response', status: 503, latencyMs: 50 }, 'degraded'],
    [{ kind: 'response', status: 401, latencyMs: 50 }, 'outage'],
    [{ kind: 'failure', latencyMs: 5_000 }, 'outage'],
  ] as const)('%o is %s', (outcome, expected) => {
    expect(classifyProbe(outcome)).toBe(expected);
  });

  it('targets each provider’s models listing with its own authentication header', () => {
    const env = parseEnv({
      NODE_ENV: 'test',
      OPENAI_API_KEY: 'sk-openai',
      ANTHROPIC_API_KEY: 'sk-ant-1',
      GOOGLE_API_KEY: 'AIza-1',
      AZURE_OPENAI_API_KEY: 'azure-key-1',
      AZURE_OPENAI_BASE_URL: 'https://example.openai.azure.com/',
      MISTRAL_API_KEY: 'mistral-1',
      COHERE_API_KEY: 'cohere-1',
    });
    expect(probeTarget('openai', env)).toEqual({ url: 'https://api.openai.com/v1/models', headers: { authorization: 'Bearer sk-openai' } });
    expect(probeTarget('anthropic', env)?.headers).toMatchObject({ 'x-api-key': 'sk-ant-1' });
    expect(probeTarget('google', env)?.url).toBe('https://generativelanguage.googleapis.com/v1beta/models');
    expect(probeTarget('azure', env)?.url).toBe('https://example.openai.azure.com/openai/models?api-version=2024-10-21');
    expect(probeTarget('mistral', env)?.url).toBe('https://api.mistral.ai/v1/models');
    expect(probeTarget('cohere', env)?.url).toBe('https://api.cohere.com/v1/models');
    expect(probeTarget('openai', parseEnv({ NODE_ENV: 'test' }))).toBeNull();
  });
});

describe('probing a fake upstream', () => {
  let server: Server;
  let base: string;
  const seen: { url: string | undefined; authorization: string | undefined }[] = [];
  let answer = 200;

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ url: request.url, authorization: request.headers.authorization });
      response.writeHead(answer, { 'content-type': 'application/json' }).end('{"data":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reports a healthy provider as operational with its latency', async () => {
    answer = 200;
    const env = parseEnv({ NODE_ENV: 'test', MISTRAL_API_KEY: 'mistral-secret', MISTRAL_BASE_URL: `${base}/v1` });
    const result = await probeProvider('mistral', env);
    expect(result.status).toBe('operational');
    expect(result.latencyMs).toEqual(expect.any(Number));
    expect(seen.at(-1)).toEqual({ url: '/v1/models', authorization: 'Bearer mistral-secret' });
  });

  it('reports server errors as degraded and a dead port as an outage', async () => {
    answer = 503;
    const env = parseEnv({ NODE_ENV: 'test', OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: base });
    expect((await probeProvider('openai', env)).status).toBe('degraded');
    const dead = parseEnv({ NODE_ENV: 'test', OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'http://127.0.0.1:9' });
    expect(await probeProvider('openai', dead)).toEqual({ status: 'outage', latencyMs: null });
  });
});
