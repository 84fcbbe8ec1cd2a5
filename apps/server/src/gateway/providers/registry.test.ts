import { MODELS, PROVIDER_IDS } from '@conductor/shared';
import { describe, expect, it } from 'vitest';
import { chatRequest } from '../../../test/fake-upstreams/adapter-testing.ts';
import { getAdapter, PROVIDER_ADAPTERS, validateBaseUrl } from './registry.ts';

describe('provider registry', () => {
  it('has one adapter per provider, under its own id', () => {
    expect(Object.keys(PROVIDER_ADAPTERS).sort()).toEqual([...PROVIDER_IDS].sort());
    for (const id of PROVIDER_IDS) expect(getAdapter(id).id).toBe(id);
  });

  it('every default base URL (except Azure, which has none) passes its own validation', () => {
    for (const id of PROVIDER_IDS) {
      const adapter = getAdapter(id);
      if (id === 'azure') {
        expect(adapter.defaultBaseUrl).toBe('');
        continue;
      }
      expect(validateBaseUrl(adapter, adapter.defaultBaseUrl, false)).toEqual({ ok: true, baseUrl: adapter.defaultBaseUrl });
    }
  });

  it('every catalogue model builds a request to its own provider base URL with the key only in headers', () => {
    for (const model of MODELS) {
      const baseUrl = 'http://127.0.0.1:9';
      const request = getAdapter(model.provider).buildRequest(chatRequest({ stream: true }), model, { apiKey: 'secret-key-123', baseUrl });
      expect(request.url.startsWith(`${baseUrl}/`)).toBe(true);
      expect(request.url).not.toContain('secret-key-123');
      expect(request.body).not.toContain('secret-key-123');
      expect(Object.values(request.headers).some((value) => value.includes('secret-key-123'))).toBe(true);
    }
  });
});

describe('validateBaseUrl', () => {
  const openai = getAdapter('openai');
  const azure = getAdapter('azure');

  it('accepts the provider host over https and strips trailing slashes', () => {
    expect(validateBaseUrl(openai, 'https://api.openai.com/v1/', false)).toEqual({ ok: true, baseUrl: 'https://api.openai.com/v1' });
    expect(validateBaseUrl(azure, 'https://contoso.openai.azure.com', false)).toEqual({
      ok: true,
      baseUrl: 'https://contoso.openai.azure.com',
    });
  });

  it.each([
    ['http://api.openai.com/v1', 'https'],
    ['https://api.openai.com.evil.example/v1', 'host'],
    ['https://evilapi.openai.com/v1', 'host'],
    ['https://user:pass@api.openai.com/v1', 'credentials'],
    ['https://api.openai.com:8443/v1', 'port'],
    ['https://api.openai.com/v1?x=1', 'query'],
    ['not a url', 'valid URL'],
    ['http://127.0.0.1:8080/v1', 'https'],
  ])('refuses %s outside tests (%s)', (url, reason) => {
    const result = validateBaseUrl(openai, url, false);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('a suffix with a leading dot allows only subdomains', () => {
    expect(validateBaseUrl(azure, 'https://openai.azure.com', false).ok).toBe(false);
    expect(validateBaseUrl(azure, 'https://contoso.openai.azure.com.example.org', false).ok).toBe(false);
  });

  it('with allowLocal, loopback http URLs are allowed and other hosts still refused', () => {
    expect(validateBaseUrl(openai, 'http://127.0.0.1:4010/v1', true)).toEqual({ ok: true, baseUrl: 'http://127.0.0.1:4010/v1' });
    expect(validateBaseUrl(openai, 'http://localhost:4010', true).ok).toBe(true);
    expect(validateBaseUrl(openai, 'http://[::1]:4010', true).ok).toBe(true);
    expect(validateBaseUrl(openai, 'http://10.0.0.5:4010', true).ok).toBe(false);
    expect(validateBaseUrl(openai, 'ftp://127.0.0.1/v1', true).ok).toBe(false);
  });
});
