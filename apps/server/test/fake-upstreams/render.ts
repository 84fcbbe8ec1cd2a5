import type { ProviderId } from '@conductor/shared';
import { fixtureJson, fixtureText, sseBlocks } from './fixtures.ts';

/**
 * Provider-shaped bodies for the fake upstream. Without `text`, the documented fixtures are
 * replayed as they are; with `text`, the same shapes carry that text (split into word pieces
 * when streamed), so a test can tell which upstream answered.
 */

const USAGE = { prompt: 9, completion: 6 };

function pieces(text: string): string[] {
  const parts = text.match(/\S+\s*|\s+/g) ?? [];
  return parts.length > 0 ? parts : [text];
}

function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

type Json = Record<string, unknown>;

export function renderJson(provider: ProviderId, text: string | undefined): unknown {
  const body = structuredClone(fixtureJson(provider, 'text-response.json')) as Json;
  if (text === undefined) return body;
  switch (provider) {
    case 'openai':
    case 'azure':
    case 'mistral': {
      const choices = body.choices as { message: Json }[];
      choices[0]!.message.content = text;
      return body;
    }
    case 'anthropic':
      body.content = [{ type: 'text', text }];
      return body;
    case 'google': {
      const candidates = body.candidates as { content: Json }[];
      candidates[0]!.content.parts = [{ text }];
      return body;
    }
    case 'cohere':
      (body.message as Json).content = [{ type: 'text', text }];
      return body;
  }
}

function openAiStream(provider: ProviderId, text: string): string[] {
  const base = { id: `chatcmpl-fake-${provider}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: 'fake-model' };
  const chunk = (delta: Json, finish: string | null, usage: Json | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
    usage,
  });
  const usage = { prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion, total_tokens: USAGE.prompt + USAGE.completion };
  const blocks = [sse(chunk({ role: 'assistant', content: '' }, null))];
  for (const piece of pieces(text)) blocks.push(sse(chunk({ content: piece }, null)));
  if (provider === 'mistral') blocks.push(sse(chunk({}, 'stop', usage)));
  else blocks.push(sse(chunk({}, 'stop')), sse({ ...base, choices: [], usage }));
  blocks.push('data: [DONE]\n\n');
  return blocks;
}

function anthropicStream(text: string): string[] {
  const blocks = [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          content: [],
          model: 'fake-model',
          usage: { input_tokens: USAGE.prompt, output_tokens: 1 },
        },
      },
      'message_start',
    ),
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
  ];
  for (const piece of pieces(text)) {
    blocks.push(sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }, 'content_block_delta'));
  }
  blocks.push(
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    sse(
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: USAGE.completion } },
      'message_delta',
    ),
    sse({ type: 'message_stop' }, 'message_stop'),
  );
  return blocks;
}

function googleStream(text: string): string[] {
  const parts = pieces(text);
  return parts.map((piece, index) => {
    const last = index === parts.length - 1;
    return sse({
      candidates: [{ content: { parts: [{ text: piece }], role: 'model' }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      usageMetadata: {
        promptTokenCount: USAGE.prompt,
        candidatesTokenCount: last ? USAGE.completion : index + 1,
        totalTokenCount: USAGE.prompt + (last ? USAGE.completion : index + 1),
      },
      modelVersion: 'fake-model',
      responseId: 'fake-response',
    });
  });
}

function cohereStream(text: string): string[] {
  const blocks = [
    sse(
      {
        id: 'fake-cohere',
        type: 'message-start',
        delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
      },
      'message-start',
    ),
    sse({ type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } }, 'content-start'),
  ];
  for (const piece of pieces(text))
    blocks.push(sse({ type: 'content-delta', index: 0, delta: { message: { content: { text: piece } } } }, 'content-delta'));
  const counts = { input_tokens: USAGE.prompt, output_tokens: USAGE.completion };
  blocks.push(
    sse({ type: 'content-end', index: 0 }, 'content-end'),
    sse({ type: 'message-end', delta: { finish_reason: 'COMPLETE', usage: { billed_units: counts, tokens: counts } } }, 'message-end'),
  );
  return blocks;
}

/** The SSE blocks of a streamed answer: the documented transcript, or the same shape carrying `text`. */
export function renderStream(provider: ProviderId, text: string | undefined): string[] {
  if (text === undefined) return sseBlocks(fixtureText(provider, 'stream.sse.txt'));
  switch (provider) {
    case 'openai':
    case 'azure':
    case 'mistral':
      return openAiStream(provider, text);
    case 'anthropic':
      return anthropicStream(text);
    case 'google':
      return googleStream(text);
    case 'cohere':
      return cohereStream(text);
  }
}
