import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../constants/messages.ts';
import { AZURE_ENDPOINT_NEEDS_KEY, azureEndpointWithoutKey, ProviderKeysInput } from './onboarding.ts';
import { ProviderKeyInput } from './settings.ts';

const AZURE_KEY = '0123456789abcdef0123';
const issues = (value: unknown) => {
  const result = ProviderKeysInput.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('onboarding provider keys', () => {
  it('keeps the spec’s messages', () => {
    expect(issues({ azure: '123456789' })).toEqual([['azure', MESSAGES.providerKeys.azure]]);
    // Every key is optional (the spec): blank ones are left out, and none at all is a valid answer.
    expect(ProviderKeysInput.parse({ openai: '', cohere: '  ' })).toEqual({});
  });

  it('takes the Azure key’s resource URL, trimmed; blank means the server’s resource', () => {
    expect(ProviderKeysInput.parse({ azure: AZURE_KEY, azureEndpoint: ' https://my-resource.openai.azure.com/ ' })).toEqual({
      azure: AZURE_KEY,
      azureEndpoint: 'https://my-resource.openai.azure.com/',
    });
    expect(ProviderKeysInput.parse({ azure: AZURE_KEY, azureEndpoint: '  ' })).toEqual({ azure: AZURE_KEY });
    expect(ProviderKeysInput.parse({ azure: AZURE_KEY })).toEqual({ azure: AZURE_KEY });
  });

  it('checks the resource URL by Settings’ rule, with its message', () => {
    for (const endpoint of ['not a url', 'ftp://my-resource.openai.azure.com', 'https://my-resource.openai.azure.com/openai']) {
      const settings = ProviderKeyInput.safeParse({ key: AZURE_KEY, endpoint });
      expect(settings.success, endpoint).toBe(false);
      expect(issues({ azure: AZURE_KEY, azureEndpoint: endpoint }), endpoint).toEqual([
        ['azureEndpoint', settings.error?.issues[0]?.message],
      ]);
    }
  });

  it('refuses a resource URL without the Azure key, on that field', () => {
    for (const keys of [{ openai: 'sk-abc123' }, { openai: 'sk-abc123', azure: '   ' }]) {
      expect(issues({ ...keys, azureEndpoint: 'https://my-resource.openai.azure.com' })).toEqual([
        ['azureEndpoint', AZURE_ENDPOINT_NEEDS_KEY],
      ]);
    }
    expect(issues({ azureEndpoint: 'https://my-resource.openai.azure.com' })).toContainEqual(['azureEndpoint', AZURE_ENDPOINT_NEEDS_KEY]);
    expect(azureEndpointWithoutKey({ azure: '', azureEndpoint: '' })).toBe(false);
    expect(azureEndpointWithoutKey({ azure: AZURE_KEY, azureEndpoint: 'https://my-resource.openai.azure.com' })).toBe(false);
  });
});
