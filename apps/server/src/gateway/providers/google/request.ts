import type { ModelInfo } from '@conductor/shared';
import type { ChatCompletionRequest } from '@conductor/shared/openai/chat';
import { compact, isInstruction, maxTokensOf, stopList, textParts } from '../common/messages.ts';
import { jsonSchemaOf, structuredFormatOf } from '../common/response-format.ts';
import type { ProviderCredentials, UpstreamRequest } from '../types.ts';
import { geminiSchema } from './schema.ts';

type Part = { text: string };
type Content = { role: 'user' | 'model'; parts: Part[] };

/**
 * System and developer messages become `systemInstruction`; assistant turns take the role
 * `model`, everything else `user`; consecutive same-role turns are merged and empty ones dropped.
 * Instructions alone (valid for OpenAI) would leave `contents` empty, which Gemini refuses: they
 * are then sent as the one user turn.
 * https://ai.google.dev/api/generate-content#request-body
 * https://ai.google.dev/gemini-api/docs/text-generation#system-instructions
 */
export function mapGeminiContents(messages: ChatCompletionRequest['messages']): { system: Part[]; contents: Content[] } {
  const system: Part[] = [];
  const contents: Content[] = [];
  for (const message of messages) {
    const parts = textParts(message.content).map((text) => ({ text }));
    if (parts.length === 0) continue;
    if (isInstruction(message)) {
      system.push(...parts);
      continue;
    }
    const role = message.role === 'assistant' ? 'model' : 'user';
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  if (contents.length === 0 && system.length > 0) return { system: [], contents: [{ role: 'user', parts: system }] };
  return { system, contents };
}

/**
 * JSON mode is `responseMimeType: application/json`; a JSON Schema also becomes `responseSchema`
 * (an empty schema asks for any JSON, as JSON mode does).
 * https://ai.google.dev/gemini-api/docs/structured-output
 */
function responseFormat(request: ChatCompletionRequest): Record<string, unknown> {
  if (!structuredFormatOf(request)) return {};
  const schema = jsonSchemaOf(request);
  if (!schema || Object.keys(schema).length === 0) return { responseMimeType: 'application/json' };
  return { responseMimeType: 'application/json', responseSchema: geminiSchema(schema) };
}

/**
 * `POST {base}/v1beta/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` for
 * Server-Sent Events, with the `x-goog-api-key` header (never the `key=` query parameter, so the
 * key stays out of URLs and logs). https://ai.google.dev/api/generate-content
 */
export function buildGeminiRequest(request: ChatCompletionRequest, model: ModelInfo, credentials: ProviderCredentials): UpstreamRequest {
  const { system, contents } = mapGeminiContents(request.messages);
  // https://ai.google.dev/api/generate-content#v1beta.GenerationConfig
  const generationConfig = compact({
    temperature: request.temperature,
    topP: request.top_p,
    maxOutputTokens: maxTokensOf(request),
    stopSequences: stopList(request.stop),
    presencePenalty: request.presence_penalty,
    frequencyPenalty: request.frequency_penalty,
    seed: request.seed,
    ...responseFormat(request),
  });
  const body = compact({ contents, systemInstruction: system.length > 0 ? { parts: system } : undefined, generationConfig });
  const method = request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return {
    url: `${credentials.baseUrl}/v1beta/models/${encodeURIComponent(model.upstreamModel)}:${method}`,
    method: 'POST',
    headers: {
      'x-goog-api-key': credentials.apiKey,
      'content-type': 'application/json',
      accept: request.stream ? 'text/event-stream' : 'application/json',
    },
    body: JSON.stringify(body),
  };
}
