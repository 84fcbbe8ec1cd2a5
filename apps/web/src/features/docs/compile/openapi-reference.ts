import { API_EXAMPLES, DOCS_API_BASE_URL, DOCS_API_KEY_VARIABLE } from '@conductor/shared/constants/api-examples';
import type { CodeTab } from '../docs-types';
import type { ApiEndpoint, ApiField, ApiReferenceData, ApiTagGroup } from '../api-reference/reference-types';
import { highlight } from './highlight';

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  examples?: unknown[];
  $ref?: string;
};
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
export type CapturedExamples = Record<string, { status: number; body: unknown }>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const TAG_ORDER = ['Gateway', 'Status', 'Billing', 'Waitlist'];

function resolve(document: OpenApiDocument, schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return resolve(document, document.components?.schemas?.[name]);
  }
  return schema;
}

/** A short, readable type: `string`, `"a" | "b"`, `number (0–2)`, `object[]`, `string | null`. */
export function describeType(document: OpenApiDocument, input: Schema | undefined, depth = 0): string {
  const schema = resolve(document, input);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && depth < 3) return [...new Set(variants.map((variant) => describeType(document, variant, depth + 1)))].join(' | ');
  const types = [schema.type ?? (schema.properties ? 'object' : 'any')].flat();
  return types
    .map((type) => {
      if (type === 'array')
        return `${describeType(document, schema.items, depth + 1).includes(' | ') ? `(${describeType(document, schema.items, depth + 1)})` : describeType(document, schema.items, depth + 1)}[]`;
      if ((type === 'number' || type === 'integer') && (schema.minimum !== undefined || schema.maximum !== undefined)) {
        const max = schema.maximum !== undefined && schema.maximum < 1e15 ? schema.maximum : undefined;
        if (schema.minimum !== undefined && max !== undefined) return `${type} (${schema.minimum}–${max})`;
      }
      return type;
    })
    .join(' | ');
}

function describeField(schema: Schema): string {
  const parts = [schema.description ?? ''];
  if (schema.default !== undefined) parts.push(`Default ${JSON.stringify(schema.default)}.`);
  return parts.filter(Boolean).join(' ');
}

function bodyFields(document: OpenApiDocument, operation: Operation): ApiField[] {
  const schema = resolve(document, operation.requestBody?.content?.['application/json']?.schema);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    location: 'body',
    type: describeType(document, property),
    required: required.has(name),
    description: describeField(resolve(document, property)),
  }));
}

/** A placeholder value from a schema, for endpoints without a captured example. */
export function exampleFromSchema(document: OpenApiDocument, input: Schema | undefined, depth = 0): unknown {
  const schema = resolve(document, input);
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return exampleFromSchema(document, variants[0], depth + 1);
  const type = [schema.type].flat()[0];
  if (depth > 6) return null;
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, property]) => [name, exampleFromSchema(document, property, depth + 1)]),
    );
  }
  if (type === 'array') return [exampleFromSchema(document, schema.items, depth + 1)];
  if (type === 'integer' || type === 'number') return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 0;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return 'string';
}

/** Long lists (90 days of status history, the whole model catalogue) are cut to their first items in examples. */
export function abbreviate(value: unknown, keep = 2): unknown {
  if (Array.isArray(value)) return value.slice(0, value.length > keep + 1 ? keep : value.length).map((item) => abbreviate(item, keep));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, abbreviate(item, keep)]));
  return value;
}

async function tab(lang: string, label: string, code: string): Promise<CodeTab> {
  return { lang, label, code, html: await highlight(code, lang) };
}

function curlExample(method: string, path: string, authenticated: boolean, body: unknown, headers: Record<string, string>): string {
  const lines = [`curl ${method === 'GET' ? '' : `-X ${method} `}${DOCS_API_BASE_URL.replace(/\/v1$/, '')}${path}`];
  if (authenticated) lines.push(`-H "Authorization: Bearer $${DOCS_API_KEY_VARIABLE}"`);
  for (const [name, value] of Object.entries(headers)) lines.push(`-H "${name}: ${value}"`);
  if (body !== undefined) {
    lines.push('-H "Content-Type: application/json"');
    lines.push(`-d '${JSON.stringify(body, null, 2).replaceAll("'", "'\\''")}'`);
  }
  return lines.join(' \\\n  ');
}

async function endpoint(
  document: OpenApiDocument,
  examples: CapturedExamples,
  path: string,
  method: string,
  operation: Operation,
): Promise<ApiEndpoint> {
  const upper = method.toUpperCase();
  const key = `${upper} ${path}`;
  const curated = API_EXAMPLES[key] ?? {};
  const authenticated = (operation.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
  const jsonBody = operation.requestBody?.content?.['application/json']?.schema;
  const body = curated.body ?? (jsonBody ? exampleFromSchema(document, jsonBody) : undefined);
  const captured = examples[key];
  const okResponse = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
  const responseBody =
    curated.showResponse === false
      ? undefined
      : captured && captured.status < 300
        ? captured.body
        : okResponse
          ? exampleFromSchema(document, okResponse[1].content?.['application/json']?.schema)
          : undefined;
  return {
    id: `${method}-${path}`
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase(),
    method: upper,
    path,
    summary: operation.summary ?? key,
    description: operation.description ?? '',
    authenticated,
    parameters: (operation.parameters ?? []).map((parameter) => ({
      name: parameter.name,
      location: parameter.in,
      type: describeType(document, parameter.schema),
      required: parameter.required ?? false,
      description: parameter.description ?? resolve(document, parameter.schema).description ?? '',
    })),
    bodyFields: bodyFields(document, operation),
    responses: Object.entries(operation.responses ?? {}).map(([status, response]) => ({ status, description: response.description ?? '' })),
    requestExamples: [await tab('bash', 'cURL', curlExample(upper, path, authenticated, body, curated.headers ?? {}))],
    responseExample: responseBody === undefined ? null : await tab('json', 'Response', JSON.stringify(abbreviate(responseBody), null, 2)),
  };
}

/** The API reference page's data from the server's OpenAPI document and the captured example answers. */
export async function compileApiReference(document: OpenApiDocument, examples: CapturedExamples): Promise<ApiReferenceData> {
  const groups = new Map<string, ApiTagGroup>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      const group = groups.get(tag) ?? {
        tag,
        description: document.tags?.find((entry) => entry.name === tag)?.description ?? '',
        endpoints: [],
      };
      group.endpoints.push(await endpoint(document, examples, path, method, operation));
      groups.set(tag, group);
    }
  }
  const rank = (tag: string) => (TAG_ORDER.includes(tag) ? TAG_ORDER.indexOf(tag) : TAG_ORDER.length);
  return {
    title: document.info.title,
    version: document.info.version,
    description: document.info.description ?? '',
    groups: [...groups.values()].sort((left, right) => rank(left.tag) - rank(right.tag) || left.tag.localeCompare(right.tag)),
  };
}
