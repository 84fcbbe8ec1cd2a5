import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_KEYS, registerErrorHandler, registerJsonParser } from './error-handler.ts';

describe('error handler', () => {
  it('answers text the database cannot store (a NUL, SQLSTATE 22021) with a 400, also when the query builder wrapped it', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    const databaseError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    app.get('/api/v1/wrapped', async () => {
      throw new Error('Failed query: insert into …', { cause: databaseError });
    });
    app.get('/v1/direct', async () => {
      throw Object.assign(new Error('character with byte sequence has no equivalent'), { code: '22P05' });
    });
    app.get('/api/v1/other', async () => {
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    app.get('/v1/other', async () => {
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    const wrapped = await app.inject({ url: '/api/v1/wrapped' });
    expect(wrapped.statusCode).toBe(400);
    expect(wrapped.json()).toEqual({
      error: { code: 'bad_request', message: 'Text fields must not contain NUL or other control characters.' },
    });
    const direct = await app.inject({ url: '/v1/direct' });
    expect(direct.statusCode).toBe(400);
    expect(direct.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'bad_request' } });
    // Any other database failure stays a 500 that says nothing of it.
    const other = await app.inject({ url: '/api/v1/other' });
    expect(other.statusCode).toBe(500);
    expect(other.body).not.toContain('deadlock');
    expect(other.json().error.code).toBe('internal');
    // The same failure under /v1 is the gateway's own 500 code, in the OpenAI envelope.
    const publicApi = await app.inject({ url: '/v1/other' });
    expect(publicApi.statusCode).toBe(500);
    expect(publicApi.json()).toMatchObject({ error: { type: 'api_error', code: 'internal_error', param: null } });
    // A path the router decodes to /v1 answers in the same envelope.
    const escaped = await app.inject({ url: '/%76%31/other?x=1' });
    expect(escaped.statusCode).toBe(500);
    expect(escaped.json()).toMatchObject({ error: { type: 'api_error', code: 'internal_error', param: null } });
    await app.close();
  });

  it('says why a body that is valid JSON is refused for a prototype key', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    registerJsonParser(app);
    app.post('/api/v1/echo', async (request) => ({ body: request.body }));
    const post = (payload: string) =>
      app.inject({ method: 'POST', url: '/api/v1/echo', payload, headers: { 'content-type': 'application/json' } });
    for (const payload of ['{"__proto__":{"admin":true}}', '{"a":{"constructor":{"prototype":{"x":1}}}}', '{"\\u005f\\u005fproto__":1}']) {
      const refused = await post(payload);
      expect([refused.statusCode, refused.json()], payload).toEqual([400, { error: { code: 'invalid_json', message: FORBIDDEN_KEYS } }]);
    }
    // Broken JSON is still named as such, and the usual body parses.
    expect((await post('{"a":')).json().error.message).toBe('Request body is not valid JSON');
    expect((await post('{"constructor":"a name"}')).json()).toEqual({ body: { constructor: 'a name' } });
    await app.close();
  });

  it('names Fastify’s refusals of a body with the product’s codes, not the framework’s', async () => {
    const app = Fastify({ bodyLimit: 64 });
    registerErrorHandler(app);
    app.post('/api/v1/echo', async (request) => ({ body: request.body }));
    const post = (payload: string, contentType: string) =>
      app.inject({ method: 'POST', url: '/api/v1/echo', payload, headers: { 'content-type': contentType } });
    const answers = [
      await post('{', 'application/json'),
      await post('', 'application/json'),
      await post(JSON.stringify({ text: 'x'.repeat(100) }), 'application/json'),
      await post('<a/>', 'application/xml'),
    ];
    expect(answers.map((answer) => [answer.statusCode, answer.json().error.code])).toEqual([
      [400, 'invalid_json'],
      [400, 'invalid_json'],
      [413, 'payload_too_large'],
      [415, 'unsupported_media_type'],
    ]);
    expect(answers[2]?.json().error.message).toBe('Request body is too large');
    await app.close();
  });
});
