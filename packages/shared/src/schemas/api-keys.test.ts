import { describe, expect, it } from 'vitest';
import { API_KEY_PERMISSION_MESSAGES, CreateApiKeyInput, UpdateApiKeyInput } from './api-keys.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('API key input', () => {
  it('refuses a key without API Access (the gateway would refuse every call it makes)', () => {
    const result = CreateApiKeyInput.safeParse({ name: 'Admin only', environment: 'live', permissions: ['admin'] });
    expect(result.success).toBe(false);
    expect(firstMessage(result)).toBe(API_KEY_PERMISSION_MESSAGES.apiRequired);
    expect(firstMessage(CreateApiKeyInput.safeParse({ name: 'None', environment: 'live', permissions: [] }))).toBe(
      API_KEY_PERMISSION_MESSAGES.noneSelected,
    );
    expect(CreateApiKeyInput.safeParse({ name: 'Both', environment: 'live', permissions: ['admin', 'api'] }).success).toBe(true);
  });

  it.each(['\ud800', 'ab\udfff', 'x\udc00\ud800y'])(
    'refuses a name with an unpaired surrogate (%j), which would be stored as U+FFFD',
    (name) => {
      expect(firstMessage(CreateApiKeyInput.safeParse({ name, environment: 'live', permissions: ['api'] }))).toBe(
        'Key name contains an invalid character (a broken emoji or symbol): retype it',
      );
      expect(UpdateApiKeyInput.safeParse({ name }).success).toBe(false);
    },
  );

  it('keeps names with emoji and other characters outside the basic plane', () => {
    for (const name of ['Rocket 🚀', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', 'Family 👨‍👩‍👧']) {
      expect(UpdateApiKeyInput.safeParse({ name }).success, name).toBe(true);
    }
  });
});
