import { describe, expect, it } from 'vitest';
import { jsonExample } from './json-example.ts';

describe('jsonExample', () => {
  it('fills the first string with the text and later ones with their names', () => {
    expect(jsonExample({ type: 'object', properties: { title: { type: 'string' }, body: { type: 'string' } } }, 'Hello')).toEqual({
      title: 'Hello',
      body: 'body',
    });
  });

  it('honours const, enum, minimum, minItems and maxItems', () => {
    expect(
      jsonExample(
        {
          type: 'object',
          properties: {
            kind: { const: 'event' },
            level: { enum: ['low', 'high'] },
            count: { type: 'integer', minimum: 2.5 },
            ratio: { type: 'number', minimum: 0.5 },
            many: { type: 'array', items: { type: 'boolean' }, minItems: 5 },
            none: { type: 'array', items: { type: 'boolean' }, maxItems: 0 },
          },
        },
        'text',
      ),
    ).toEqual({ kind: 'event', level: 'low', count: 3, ratio: 0.5, many: [false, false, false], none: [] });
  });

  it('follows $refs and anyOf, merges allOf, and stops at a cycle', () => {
    const schema = {
      type: 'object',
      properties: {
        node: { $ref: '#/$defs/Node' },
        either: { anyOf: [{ type: 'null' }, { type: 'integer' }] },
        both: { allOf: [{ type: 'object', properties: { a: { type: 'boolean' } } }] },
      },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    };
    const value = jsonExample(schema, 'text') as Record<string, unknown>;
    expect(value.either).toBe(0);
    expect(value.both).toEqual({ a: false });
    let depth = 0;
    let node = value.node as Record<string, unknown> | null;
    while (node) {
      depth += 1;
      node = node.next as Record<string, unknown> | null;
    }
    expect(depth).toBeGreaterThan(2);
    expect(depth).toBeLessThan(12);
  });

  it('is valid JSON for any schema, including a bare type', () => {
    expect(JSON.parse(JSON.stringify(jsonExample({ type: 'string' }, 'Hi')))).toBe('Hi');
    expect(jsonExample({ type: ['null', 'number'] }, 'Hi')).toBe(0);
  });
});
