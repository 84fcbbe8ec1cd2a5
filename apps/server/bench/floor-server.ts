import Fastify from 'fastify';
import { Agent, request } from 'undici';
import { profileIfAsked } from './profile-hook.ts';

/**
 * The floor: a bare Fastify + undici passthrough with no auth, limits, metering or mapping.
 * Whatever a real gateway does costs more than this.
 */
const [upstream = 'http://127.0.0.1:1', portText = '0'] = process.argv.slice(2);
const agent = new Agent({ keepAliveTimeout: 30_000 });
const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024 });

app.post('/v1/chat/completions', async (incoming, reply) => {
  const response = await request(`${upstream}/v1/chat/completions`, {
    dispatcher: agent,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: incoming.headers.authorization ?? '' },
    body: JSON.stringify(incoming.body),
  });
  reply.code(response.statusCode).header('content-type', String(response.headers['content-type'] ?? 'application/json'));
  return reply.send(response.body);
});

const address = await app.listen({ port: Number(portText), host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
await profileIfAsked();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
