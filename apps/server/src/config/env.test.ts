import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.ts';

/** Secrets as `openssl rand -hex 32` makes them. */
const secrets = {
  SESSION_SECRET: '3f9c1a7e5b2d8064c1e97a3b5d2f8e60a4c7b1d9e3f5a2c8b6d0e4f1a7c3b9d5',
  ENCRYPTION_KEY: '8e2b4d6f1a3c5e7092b4d6f8a1c3e5f7b9d2f4a6c8e0b3d5f7a9c1e4b6d8f0a2',
};

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

  it('refuses obviously weak secrets in production, naming the variable but not the value', () => {
    for (const [name, weak] of [
      ['SESSION_SECRET', 'a'.repeat(32)],
      ['SESSION_SECRET', 'ab'.repeat(16)],
      ['ENCRYPTION_KEY', '0'.repeat(64)],
      ['ENCRYPTION_KEY', 'F'.repeat(32) + 'f'.repeat(32)],
    ] as const) {
      const parse = () => parseEnv({ NODE_ENV: 'production', ...secrets, [name]: weak });
      expect(parse, weak).toThrowError(new RegExp(`${name}: too weak for NODE_ENV=production`));
      expect(parse, weak).toThrowError(expect.objectContaining({ message: expect.not.stringContaining(weak) }));
      // Development and tests take them (they are generated there when unset).
      expect(parseEnv({ [name]: weak })[name]).toBe(weak);
    }
    expect(parseEnv({ NODE_ENV: 'production', ...secrets }).SESSION_SECRET).toBe(secrets.SESSION_SECRET);
  });

  it('requires an https PUBLIC_URL in production when HOST is not a loopback address', () => {
    const production = { NODE_ENV: 'production', ...secrets };
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', 'conductor.internal']) {
      expect(() => parseEnv({ ...production, HOST }), HOST).toThrowError(
        /PUBLIC_URL: required \(https:\/\/your-domain\) when NODE_ENV=production and HOST/,
      );
      expect(() => parseEnv({ ...production, HOST, PUBLIC_URL: 'http://conductor.example' }), HOST).toThrowError(
        /PUBLIC_URL: must start with https:\/\//,
      );
      expect(parseEnv({ ...production, HOST, PUBLIC_URL: 'https://conductor.example' }).PUBLIC_URL).toBe('https://conductor.example');
    }
    // On loopback (a reverse proxy on the same host, the benchmark, `npm run start:prod`) the request's own origin serves.
    for (const HOST of ['127.0.0.1', 'localhost', '::1']) expect(parseEnv({ ...production, HOST }).HOST).toBe(HOST);
    // Outside production nothing changes: a container in development listens on every address.
    expect(parseEnv({ HOST: '0.0.0.0' }).PUBLIC_URL).toBeUndefined();
    expect(parseEnv({ NODE_ENV: 'test', HOST: '0.0.0.0' }).PUBLIC_URL).toBeUndefined();
  });

  it('lists every production problem at once', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', HOST: '0.0.0.0', SESSION_SECRET: 'a'.repeat(32) })).toThrowError(
      /SESSION_SECRET: too weak.*ENCRYPTION_KEY: required.*PUBLIC_URL: required/s,
    );
  });

  it('seeds the public demo account by default, except in production unless asked', () => {
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
