import { localRef } from '../common/response-format.ts';
import { ProviderRequestError } from '../common/stream-error.ts';
import { isRecord } from '../../../lib/is-record.ts';

/**
 * A JSON Schema as Gemini's `generationConfig.responseSchema` takes it: the OpenAPI 3.0 subset
 * of `Schema` (upper-case types, `nullable`, string-only `enum`, `propertyOrdering`).
 * https://ai.google.dev/api/caching#Schema
 * https://ai.google.dev/gemini-api/docs/structured-output
 */
export type GeminiSchema = Record<string, unknown>;

const TYPES: Readonly<Record<string, string>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};
/** Formats Gemini documents per type; any other is a hint it would refuse, so it is left out. */
const FORMATS: Readonly<Record<string, ReadonlySet<string>>> = {
  STRING: new Set(['enum', 'date-time']),
  NUMBER: new Set(['float', 'double']),
  INTEGER: new Set(['int32', 'int64']),
};
const NUMBER_MEMBERS = ['minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const;
const TEXT_MEMBERS = ['title', 'description', 'pattern'] as const;
/** Constructs with no equivalent in Gemini's schema: refused rather than silently loosened. */
const UNSUPPORTED = ['allOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas', 'dependentRequired', 'prefixItems'];
/** Deeper than this is refused (and a `$ref` cycle ends here). */
const MAX_DEPTH = 32;

function refuse(detail: string): never {
  throw new ProviderRequestError(
    `Google Gemini cannot take this response_format JSON schema: ${detail}. Route the request to a model of another provider, or simplify the schema.`,
    'response_format',
  );
}

/** The caller's JSON Schema as Gemini's `responseSchema`; local `$ref`s (`#/$defs/…`, `#/definitions/…`) are inlined. */
export function geminiSchema(root: Record<string, unknown>): GeminiSchema {
  return convert(root, root, 0, '');
}

function resolveRef(root: Record<string, unknown>, ref: unknown): Record<string, unknown> {
  const target = localRef(root, ref);
  if (!isRecord(target)) refuse(`'$ref' ${JSON.stringify(ref)} does not name a definition in this schema`);
  return target;
}

function convert(schema: unknown, root: Record<string, unknown>, depth: number, at: string): GeminiSchema {
  if (depth > MAX_DEPTH) refuse(`it nests deeper than ${MAX_DEPTH} levels (or a '$ref' refers to itself) at '${at || '/'}'`);
  if (schema === true || (isRecord(schema) && Object.keys(schema).length === 0))
    refuse(`'${at || '/'}' allows any value, which Gemini's schema cannot express`);
  if (!isRecord(schema)) refuse(`'${at || '/'}' is not a schema object`);
  if (schema.$ref !== undefined) return convert(resolveRef(root, schema.$ref), root, depth + 1, at);
  for (const name of UNSUPPORTED) if (schema[name] !== undefined) refuse(`'${name}' at '${at || '/'}' has no equivalent`);

  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) {
    if (!Array.isArray(alternatives) || alternatives.length === 0) refuse(`'anyOf' at '${at || '/'}' must list schemas`);
    const nonNull = alternatives.filter((option) => !(isRecord(option) && option.type === 'null'));
    const options = nonNull.map((option, index) => convert(option, root, depth + 1, `${at}/anyOf/${index}`));
    const nullable = nonNull.length < alternatives.length;
    if (options.length === 1) return { ...options[0], ...(nullable ? { nullable: true } : {}), ...texts(schema) };
    return { anyOf: options, ...(nullable ? { nullable: true } : {}), ...texts(schema) };
  }

  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== undefined);
  const nullable = types.includes('null');
  const named = types.filter((type) => type !== 'null');
  if (named.length > 1) {
    // One alternative per type (each with the schema's other keywords), and null as nullable.
    const each = named.map((type) => ({ ...schema, type, title: undefined, description: undefined }));
    return convert({ ...texts(schema), anyOf: nullable ? [...each, { type: 'null' }] : each }, root, depth + 1, at);
  }
  let type = named.length === 1 ? TYPES[String(named[0])] : undefined;
  if (named.length === 1 && !type) refuse(`type ${JSON.stringify(named[0])} at '${at || '/'}' is not a JSON Schema type`);

  const values = schema.const !== undefined ? [schema.const] : schema.enum;
  if (values !== undefined) {
    if (!Array.isArray(values) || values.some((value) => typeof value !== 'string' && value !== null))
      refuse(`'enum' at '${at || '/'}' lists values other than strings, which Gemini's enums cannot hold`);
    type ??= 'STRING';
  }
  if (!type && (schema.properties !== undefined || schema.required !== undefined)) type = 'OBJECT';
  if (!type && schema.items !== undefined) type = 'ARRAY';
  if (!type) refuse(`'${at || '/'}' names no type`);

  const out: GeminiSchema = { type };
  if (nullable || (Array.isArray(values) && values.includes(null))) out.nullable = true;
  if (Array.isArray(values)) out.enum = values.filter((value) => value !== null);
  Object.assign(out, texts(schema));
  if (typeof schema.format === 'string' && FORMATS[type]?.has(schema.format)) out.format = schema.format;
  for (const name of NUMBER_MEMBERS) if (typeof schema[name] === 'number') out[name] = schema[name];

  if (type === 'OBJECT') {
    const properties = schema.properties ?? {};
    if (!isRecord(properties)) refuse(`'properties' at '${at || '/'}' is not an object`);
    const names = Object.keys(properties);
    if (names.length === 0) refuse(`the object at '${at || '/'}' declares no properties, which Gemini's schema requires`);
    out.properties = Object.fromEntries(
      names.map((name) => [name, convert(properties[name], root, depth + 1, `${at}/properties/${name}`)]),
    );
    // Gemini orders properties alphabetically unless told; the caller's order is kept.
    out.propertyOrdering = names;
    if (Array.isArray(schema.required)) out.required = schema.required.filter((name) => typeof name === 'string' && names.includes(name));
  }
  if (type === 'ARRAY') {
    if (schema.items === undefined) refuse(`the array at '${at || '/'}' has no 'items' schema`);
    out.items = convert(schema.items, root, depth + 1, `${at}/items`);
  }
  return out;
}

function texts(schema: Record<string, unknown>): GeminiSchema {
  const out: GeminiSchema = {};
  for (const name of TEXT_MEMBERS) if (typeof schema[name] === 'string') out[name] = schema[name];
  return out;
}
