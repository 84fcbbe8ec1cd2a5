import { describe, expect, it } from 'vitest';
import { EXAMPLE_BUDGET, jsonExample } from './json-example.ts';

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
    ).toEqual({ kind: 'event', level: 'low', count: 3, ratio: 0.5, many: [false, false, false, false, false], none: [] });
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

/** Every JSON value in `value`, nested ones included: the size of the example in nodes. */
function countValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, item) => sum + countValues(item), 0);
  if (typeof value === 'object' && value !== null)
    return 1 + Object.values(value).reduce((sum: number, item) => sum + countValues(item), 0);
  return 1;
}

/** k properties, each a `$ref` to the object that holds them: k^12 nodes without a budget. */
function selfReferencing(k: number, required: boolean): Record<string, unknown> {
  const properties = Object.fromEntries(Array.from({ length: k }, (_, index) => [`p${index}`, { $ref: '#/$defs/n' }]));
  return { $defs: { n: { type: 'object', properties, ...(required ? { required: Object.keys(properties) } : {}) } }, $ref: '#/$defs/n' };
}

/** The JSON text an example becomes, checked to parse back to the same value. */
function serialised(value: unknown): string {
  const text = JSON.stringify(value);
  expect(JSON.parse(text)).toEqual(value);
  return text;
}

// Past the character budget only the leaf that crossed it (here the reply text, at most) and closing brackets are added.
const SIZE_BOUND = EXAMPLE_BUDGET.bare.characters + 1_000;

describe('jsonExample within its budget', () => {
  it('leaves a realistic schema as it was without a budget', () => {
    const unlimited = {
      full: { work: Number.POSITIVE_INFINITY, characters: Number.POSITIVE_INFINITY },
      bare: { work: Number.POSITIVE_INFINITY, characters: Number.POSITIVE_INFINITY },
    };
    const section = (index: number) => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 10 }, (_, field) => [
          `field${index}_${field}`,
          field % 2 ? { type: 'string' } : { type: 'array', items: { $ref: '#/$defs/item' }, minItems: 2 },
        ]),
      ),
    });
    const schema = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`section${index}`, section(index)])),
      $defs: { item: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' }, kind: { enum: ['a', 'b'] } } } },
    };
    const budgeted = jsonExample(schema, 'the reply');
    expect(budgeted).toEqual(jsonExample(schema, 'the reply', unlimited));
    expect(countValues(budgeted)).toBeGreaterThan(1_000);
  });

  it.each([
    [13, false],
    [13, true],
    [30, false],
    [30, true],
  ])('bounds a self-referencing schema of %i properties (required: %s)', (k, required) => {
    const text = serialised(jsonExample(selfReferencing(k, required), 'the reply'));
    expect(text.length).toBeLessThanOrEqual(SIZE_BOUND);
    expect(countValues(JSON.parse(text))).toBeLessThan(EXAMPLE_BUDGET.bare.work);
  });

  it('leaves optional properties out once the budget runs out, so the value stays a valid object', () => {
    const value = jsonExample(selfReferencing(13, false), 'the reply') as Record<string, unknown>;
    // Depth first: the first branch took the budget, and its siblings, being optional, were left out.
    expect(Object.keys(value)).toEqual(['p0']);
    expect(Object.keys(value.p0 as object)).toEqual(['p0']);
  });

  it('bounds nested arrays with a large minItems', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 14; level += 1) schema = { type: 'array', items: schema, minItems: 1_000 };
    const text = serialised(jsonExample(schema, 'the reply'));
    expect(text.length).toBeLessThanOrEqual(SIZE_BOUND);
  });

  it('bounds a wide object whose every property is a wide object again', () => {
    const properties = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`property${index}`, { $ref: '#/$defs/wide' }]));
    const wide = { type: 'object', properties, required: Object.keys(properties) };
    const text = serialised(jsonExample({ $defs: { wide }, $ref: '#/$defs/wide' }, 'the reply'));
    expect(text.length).toBeLessThanOrEqual(SIZE_BOUND);
  });

  it('bounds combinations, enums, consts and pattern or additional properties', () => {
    const big = 'x'.repeat(1_000);
    const branch = {
      anyOf: [{ type: 'null' }, { allOf: [{ $ref: '#/$defs/node' }, { type: 'object' }] }],
    };
    const node = {
      type: 'object',
      properties: {
        a: branch,
        b: { oneOf: [{ $ref: '#/$defs/node' }] },
        c: { const: { big } },
        d: { enum: [big] },
        e: { type: 'array', items: { $ref: '#/$defs/node' }, minItems: 3 },
      },
      required: ['a', 'b', 'c', 'd', 'e'],
      patternProperties: { '^x': { $ref: '#/$defs/node' } },
      additionalProperties: { $ref: '#/$defs/node' },
    };
    const text = serialised(jsonExample({ $defs: { node }, $ref: '#/$defs/node' }, 'the reply'));
    // One const or enum value of the caller's own may cross the line.
    expect(text.length).toBeLessThanOrEqual(SIZE_BOUND + big.length);
  });

  it('keeps required properties and minItems while the budget allows, after optional ones are dropped', () => {
    const budget = { full: { work: 0, characters: 0 }, bare: { work: 1_000, characters: 1_000 } };
    const schema = {
      type: 'object',
      properties: {
        optional: { type: 'string' },
        list: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 2 },
        free: { type: 'array', items: { type: 'integer' } },
      },
      required: ['list', 'free'],
    };
    expect(jsonExample(schema, 'the reply', budget)).toEqual({ list: [1, 1], free: [] });
  });

  it('gives bare values once the work is spent, and nothing more once the characters are', () => {
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`p${index}`, { type: 'string' }])),
    };
    const schema = {
      type: 'object',
      properties: { wide, title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      required: ['wide', 'title', 'tags'],
    };
    // The wide object's 50 properties spend the work: it and what follows it get bare values.
    const spentWork = { full: { work: 0, characters: 0 }, bare: { work: 20, characters: 1_000 } };
    expect(jsonExample(schema, 'the reply', spentWork)).toEqual({ wide: {}, title: '', tags: [] });
    const spentCharacters = { full: { work: 0, characters: 0 }, bare: { work: 1_000, characters: 0 } };
    expect(jsonExample(schema, 'the reply', spentCharacters)).toEqual({});
  });
});
