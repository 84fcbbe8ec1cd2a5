import { createServer } from 'node:http';

/**
 * The benchmark's upstream: a minimal OpenAI-compatible server answering at once, a fixed
 * chat completion as JSON, or as an SSE stream of 12 content chunks, a finish chunk, a usage
 * chunk and `[DONE]` (the shape OpenAI sends with `stream_options.include_usage`).
 */
const port = Number(process.argv[2] ?? 0);
const created = 1_700_000_000;
const words = ['The', ' quick', ' brown', ' fox', ' jumps', ' over', ' the', ' lazy', ' dog', ' and', ' runs', ' away.'];

const json = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: words.join('') }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 12, total_tokens: 24 },
});

const chunk = (delta: object, finish: string | null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const first = chunk({ role: 'assistant', content: '' }, null);
const rest = [
  ...words.map((word) => chunk({ content: word }, null)),
  chunk({}, 'stop'),
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 12, completion_tokens: 12, total_tokens: 24 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

const server = createServer((request, response) => {
  let streamed = false;
  request.on('data', (data: Buffer) => {
    if (!streamed && data.includes('"stream":true')) streamed = true;
  });
  request.on('end', () => {
    if (streamed) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // The first event on its own, the rest in a second write: clients see a real first byte.
      response.write(first);
      setImmediate(() => response.end(rest));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    response.end(json);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : port })}\n`);
});
