import { describe, expect, it } from 'vitest';
import { ProviderRequestError } from '../common/stream-error.ts';
import { geminiSchema } from './schema.ts';

const refusal = (schema: Record<string, unknown>) => {
  try {
    geminiSchema(schema);
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderRequestError);
    const refused = error as ProviderRequestError;
    expect(refused.status).toBe(400);
    expect(refused.code).toBe('unsupported_parameter');
    expect(refused.param).toBe('response_format');
    expect(refused.disposition).toBe('fallback');
    return refused.message;
  }
  throw new Error('the schema was accepted');
};

describe('geminiSchema', () => {
  it('maps types, bounds, formats Gemini knows, and keeps the property order', () => {
    expect(
      geminiSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        title: 'Event',
        properties: {
          when: { type: 'string', format: 'date-time' },
          email: { type: 'string', format: 'email', pattern: '@' },
          score: { type: 'number', format: 'double', minimum: 0, maximum: 1 },
          count: { type: 'integer', format: 'int64' },
        },
        required: ['when', 'ghost'],
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'OBJECT',
      title: 'Event',
      properties: {
        when: { type: 'STRING', format: 'date-time' },
        email: { type: 'STRING', pattern: '@' },
        score: { type: 'NUMBER', format: 'double', minimum: 0, maximum: 1 },
        count: { type: 'INTEGER', format: 'int64' },
      },
      propertyOrdering: ['when', 'email', 'score', 'count'],
      required: ['when'],
    });
  });

  it('turns a list of types into anyOf, and null among them into nullable', () => {
    expect(geminiSchema({ type: 'object', properties: { v: { type: ['string', 'integer', 'null'] } } }).properties).toEqual({
      v: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }], nullable: true },
    });
  });

  it('takes const and string enums as enums, null in an enum as nullable', () => {
    expect(geminiSchema({ type: 'object', properties: { a: { const: 'x' }, b: { enum: ['y', null] } } }).properties).toEqual({
      a: { type: 'STRING', enum: ['x'] },
      b: { type: 'STRING', enum: ['y'], nullable: true },
    });
  });

  it('inlines local $refs from $defs and definitions', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/definitions/B' } },
      $defs: { A: { type: 'boolean' } },
      definitions: { B: { type: 'array', items: { type: 'number' } } },
    };
    expect(geminiSchema(schema).properties).toEqual({ a: { type: 'BOOLEAN' }, b: { type: 'ARRAY', items: { type: 'NUMBER' } } });
  });

  it.each([
    [{ allOf: [{ type: 'string' }] }, "'allOf' at '/' has no equivalent"],
    [{ type: 'object', properties: { n: { enum: [1, 2] } } }, "'enum' at '/properties/n' lists values other than strings"],
    [{ type: 'object' }, "the object at '/' declares no properties"],
    [{ type: 'array' }, "the array at '/' has no 'items' schema"],
    [{ type: 'object', properties: { a: {} } }, "'/properties/a' allows any value"],
    [
      { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } },
      '\'$ref\' "https://example.com/s.json" does not name a definition',
    ],
    [
      { type: 'object', properties: { a: { $ref: '#/$defs/Loop' } }, $defs: { Loop: { $ref: '#/$defs/Loop' } } },
      'nests deeper than 32 levels',
    ],
    [{ type: 'date' }, 'type "date" at \'/\' is not a JSON Schema type'],
    [{ description: 'no type' }, "'/' names no type"],
  ])('refuses %j', (schema, detail) => {
    const message = refusal(schema);
    expect(message).toContain(detail);
    expect(message).toMatch(/^Google Gemini cannot take this response_format JSON schema: /);
  });
});
