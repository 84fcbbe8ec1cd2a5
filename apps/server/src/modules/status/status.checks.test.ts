import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../config/env.ts';
import { gatewayStatus, overallStatus, runChecks } from './status.checks.ts';

describe('status checks', () => {
  const env = parseEnv({ NODE_ENV: 'test', OPENAI_API_KEY: 'sk-1', MISTRAL_API_KEY: 'mistral-key-1' });

  it('checks the API, the database and each configured provider, and derives the gateway', async () => {
    const checks = await runChecks({
      env,
      pingDatabase: async () => true,
      probe: async (provider) => ({ status: provider === 'openai' ? 'operational' : 'outage', latencyMs: 10 }),
    });
    expect(checks.map((check) => [check.component, check.status])).toEqual([
      ['api', 'operational'],
      ['gateway', 'degraded'],
      ['database', 'operational'],
      ['provider:openai', 'operational'],
      ['provider:mistral', 'outage'],
    ]);
    expect(overallStatus(checks)).toBe('degraded');
  });

  it('marks a provider degraded while its circuit breaker is open, even if the probe succeeds', async () => {
    const checks = await runChecks({
      env,
      pingDatabase: async () => true,
      probe: async () => ({ status: 'operational', latencyMs: 10 }),
      isProviderHealthy: (provider) => provider !== 'mistral',
    });
    expect(checks.find((check) => check.component === 'provider:mistral')?.status).toBe('degraded');
    expect(checks.find((check) => check.component === 'provider:openai')?.status).toBe('operational');
  });

  it('treats a failing database ping as an outage of the database and the gateway', async () => {
    const checks = await runChecks({ env: parseEnv({ NODE_ENV: 'test' }), pingDatabase: async () => Promise.reject(new Error('down')) });
    expect(checks.find((check) => check.component === 'database')).toMatchObject({ status: 'outage', latencyMs: null });
    expect(overallStatus(checks)).toBe('outage');
    expect(gatewayStatus('operational', [])).toBe('operational');
  });
});
