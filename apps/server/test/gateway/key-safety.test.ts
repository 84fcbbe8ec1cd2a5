import { Writable } from 'node:stream';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertProviderKey } from '../../src/modules/provider-keys/provider-keys.repository.ts';
import {
  closeFakes,
  createAccountWithKey,
  type Fakes,
  fake,
  HOSTED_KEYS,
  type LiveGateway,
  sdk,
  startFakes,
  startGateway,
  upstreamEnv,
} from './gateway-helpers.ts';

const BYOK_KEY = 'sk-byokUserOpenAiKey0000000000000042';
const messages = [{ role: 'user' as const, content: 'Hi' }];

describe('provider keys: BYOK first, and never in logs or responses', () => {
  const logs: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  let fakes: Fakes;
  let gateway: LiveGateway;
  const clientKeys: string[] = [];
  const bodies: string[] = [];

  beforeAll(async () => {
    fakes = await startFakes(['openai', 'anthropic']);
    gateway = await startGateway({ ...upstreamEnv(fakes), UPSTREAM_TIMEOUT_MS: '500' }, { logger: { level: 'trace', stream: capture } });
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });

  it('uses the account’s own key when it has one, the hosted key otherwise', async () => {
    const withOwn = await createAccountWithKey(gateway.app, 'pro');
    await upsertProviderKey(
      gateway.app.context.database.db,
      gateway.app.context.secrets.encryptionKey,
      withOwn.userId,
      'openai',
      BYOK_KEY,
      Date.now(),
    );
    const without = await createAccountWithKey(gateway.app, 'pro');
    clientKeys.push(withOwn.key, without.key);

    await sdk(gateway.origin, withOwn.key).chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(fake(fakes, 'openai').requests.at(-1)?.apiKey).toBe(BYOK_KEY);
    const providers = (await (
      await fetch(`${gateway.origin}/v1/providers`, { headers: { authorization: `Bearer ${withOwn.key}` } })
    ).json()) as {
      data: { id: string; key_source: string }[];
    };
    expect(providers.data.find((provider) => provider.id === 'openai')?.key_source).toBe('byok');
    expect(JSON.stringify(providers)).not.toContain(BYOK_KEY);

    await sdk(gateway.origin, without.key).chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(fake(fakes, 'openai').requests.at(-1)?.apiKey).toBe(HOSTED_KEYS.openai);
  });

  it('keeps keys out of logs and error bodies, even when the upstream echoes them', async () => {
    const { key } = await createAccountWithKey(gateway.app, 'pro');
    clientKeys.push(key);
    const client = sdk(gateway.origin, key);
    fake(fakes, 'anthropic').enqueue({
      kind: 'status',
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key: ${HOSTED_KEYS.anthropic}` } },
    });
    const rejected = await client.chat.completions.create({ model: 'claude-3-5-haiku', messages }).catch((error: APIError) => error);
    // The server's hosted key refused: the operator's to fix, so a 502, not the caller's 401.
    expect(rejected).toBeInstanceOf(OpenAI.InternalServerError);
    expect((rejected as APIError).status).toBe(502);
    expect((rejected as APIError).code).toBe('upstream_hosted_key_rejected');
    expect((rejected as APIError).message).toContain('Your Conductor API key is fine');
    bodies.push(JSON.stringify((rejected as APIError).error), (rejected as APIError).message);
    fake(fakes, 'openai').enqueue({ kind: 'break-stream', afterEvents: 2 });
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
    await (async () => {
      for await (const _chunk of stream) {
        // until it breaks
      }
    })().catch((error: Error) => bodies.push(error.message));
    fake(fakes, 'openai').setBehaviour({ kind: 'hang' });
    const timedOut = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((error: APIError) => error);
    fake(fakes, 'openai').setBehaviour({ kind: 'ok' });
    expect(timedOut).toBeInstanceOf(OpenAI.APIError);
    expect((timedOut as APIError).status).toBe(504);
    bodies.push(JSON.stringify((timedOut as APIError).error));
    await fetch(`${gateway.origin}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}x` }, body: '{}' });

    const logged = logs.join('');
    expect(logged.length).toBeGreaterThan(1_000);
    expect(logged).toContain('stream broke mid-way');
    const secrets = [...Object.values(HOSTED_KEYS), BYOK_KEY, ...clientKeys];
    for (const secret of secrets) {
      expect(logged).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
  });
});
