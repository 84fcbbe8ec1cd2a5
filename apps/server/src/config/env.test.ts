import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('applies the documented defaults', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(8080);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.DATA_DIR).toBe('./.data');
    expect(env.SITE_MODE).toBe('home');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PGLITE_THREAD).toBe('auto');
    expect(env.GATEWAY_USAGE_FLUSH_MS).toBe(1_000);
    expect(env.GATEWAY_USAGE_BATCH).toBeUndefined();
  });

  it('names the variable when a value is wrong', () => {
    expect(() => parseEnv({ PORT: 'abc' })).toThrowError(ConfigError);
    expect(() => parseEnv({ PORT: 'abc' })).toThrowError(/PORT/);
    expect(() => parseEnv({ SITE_MODE: 'blog' })).toThrowError(/SITE_MODE/);
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrowError(/DATABASE_URL/);
    expect(() => parseEnv({ PGLITE_THREAD: 'both' })).toThrowError(/PGLITE_THREAD/);
    expect(() => parseEnv({ GATEWAY_USAGE_BATCH: '0' })).toThrowError(/GATEWAY_USAGE_BATCH/);
  });

  it('never echoes secret values in its messages', () => {
    try {
      parseEnv({ ENCRYPTION_KEY: 'not-hex-secret-value' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toMatch(/ENCRYPTION_KEY/);
      expect(String(error)).not.toMatch(/not-hex-secret-value/);
    }
  });

  it('requires explicit secrets in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrowError(/SESSION_SECRET.*required/s);
  });

  it('seeds the public demo account by default, except in production unless asked', () => {
    const secrets = { SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'ab'.repeat(32) };
    expect(parseEnv({}).DEMO_ACCOUNT).toBe('on');
    expect(parseEnv({ NODE_ENV: 'production', ...secrets }).DEMO_ACCOUNT).toBe('off');
    expect(parseEnv({ NODE_ENV: 'production', ...secrets, DEMO_ACCOUNT: 'on' }).DEMO_ACCOUNT).toBe('on');
  });

  it('refuses local upstreams outside tests', () => {
    expect(() => parseEnv({ UPSTREAM_ALLOW_LOCAL: 'true' })).toThrowError(/UPSTREAM_ALLOW_LOCAL/);
    expect(parseEnv({ UPSTREAM_ALLOW_LOCAL: 'true', NODE_ENV: 'test' }).UPSTREAM_ALLOW_LOCAL).toBe(true);
  });

  it('reads TRUST_PROXY as off or the trusted proxies', () => {
    expect(parseEnv({}).TRUST_PROXY).toBeUndefined();
    expect(parseEnv({ TRUST_PROXY: '' }).TRUST_PROXY).toBeUndefined();
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBeUndefined();
    expect(parseEnv({ TRUST_PROXY: '10.0.0.0/8, loopback,192.168.1.7,fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      'loopback',
      '192.168.1.7',
      'fd00::/8',
    ]);
  });

  it('refuses a TRUST_PROXY that would let a client choose its address, or that is not an address', () => {
    for (const value of ['true', '*', '1', 'proxy.internal', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/8/2', '10.0.0.0/', 'loopback,']) {
      expect(() => parseEnv({ TRUST_PROXY: value }), value).toThrowError(/TRUST_PROXY: expected the trusted proxies' addresses/);
    }
  });
});
