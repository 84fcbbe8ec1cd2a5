import type { StructuredFormat } from '@conductor/shared';
import type { ChatCompletionRequest } from '@conductor/shared/openai/chat';
import { isRecord } from '../../../lib/is-record.ts';
import { compact } from './messages.ts';

/** The JSON output a request asks for (`json_object` or `json_schema`), or undefined for plain text. */
export function structuredFormatOf(request: ChatCompletionRequest): StructuredFormat | undefined {
  const type = request.response_format?.type;
  return type === 'json_object' || type === 'json_schema' ? type : undefined;
}

/** The caller's JSON Schema (an empty object when none was given: any JSON object). */
export function jsonSchemaOf(request: ChatCompletionRequest): Record<string, unknown> | undefined {
  const format = request.response_format;
  if (format?.type !== 'json_schema') return undefined;
  return format.json_schema.schema ?? {};
}

/**
 * `response_format` for the OpenAI wire format (OpenAI, Azure OpenAI, Mistral), rebuilt from the
 * members the schema knows, so nothing unvalidated reaches the upstream. Plain text is left out.
 * https://platform.openai.com/docs/api-reference/chat/create#chat-create-response_format
 * https://docs.mistral.ai/capabilities/structured-output/custom_structured_output/
 */
export function openAiResponseFormat(request: ChatCompletionRequest): Record<string, unknown> | undefined {
  const format = request.response_format;
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, description, schema, strict } = format.json_schema;
  return {
    type: 'json_schema',
    json_schema: compact({ name, description: description ?? undefined, schema: schema ?? undefined, strict: strict ?? undefined }),
  };
}

/** What a local `$ref` (`#/$defs/<name>` or `#/definitions/<name>`, JSON-pointer escapes decoded) names in `root`; undefined for any other. */
export function localRef(root: Record<string, unknown>, ref: unknown): unknown {
  const match = typeof ref === 'string' ? /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref) : null;
  const definitions = match ? root[match[1] as string] : undefined;
  if (!match || !isRecord(definitions)) return undefined;
  return definitions[
    decodeURIComponent(match[2] as string)
      .replaceAll('~1', '/')
      .replaceAll('~0', '~')
  ];
}
