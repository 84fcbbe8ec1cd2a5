import { isRecord } from '../../../lib/is-record.ts';
import { localRef } from '../common/response-format.ts';

/**
 * The sandbox's structured answer: a deterministic JSON value of the caller's JSON Schema, so
 * code that parses a `json_schema` answer can be tested with a test key. Strings take `text`
 * (the sandbox's reply) the first time and the property's name after that; enums and `const`
 * take their first value; numbers their `minimum` or 0; arrays hold `minItems` items (one when
 * it is not given); objects every declared property. Local `$ref`s are followed; a schema too
 * deep, a cycle, or a construct it cannot satisfy gives the simplest value of the type asked for.
 *
 * The schema is the caller's, so the work is budgeted, not just the depth: a few properties that
 * each `$ref` their own definition multiply at every level (k properties, 12 levels: k^12 nodes),
 * which once held the event loop for seconds and the heap for a gigabyte. The budget counts work
 * (one unit per schema node visited and per property, option, type or `required` entry looked
 * at) and the JSON characters emitted, over the whole traversal, which is depth first, so the
 * first properties are the fullest:
 * - within `full`, the example is as described above;
 * - past it, the example turns minimal and stays as valid as it can: optional properties are left
 *   out, arrays hold only their `minItems` (none when not given);
 * - past `bare`, nothing is descended into any more: objects are `{}`, arrays `[]`, strings `""`,
 *   an anyOf/oneOf takes its first option and an allOf its first member; only the objects already
 *   being built (at most MAX_DEPTH nested) go on with their required properties;
 * - once `bare.characters` are spent, nothing is added at all, not even a required property, and
 *   a `const` or `enum` gives `null`: such a schema (an endless chain of required `$ref`s, say)
 *   has no small valid value, and a bounded answer matters more than a valid one.
 * So any schema gives at most `bare.characters` of JSON, plus the one leaf that crossed the line
 * (a string or `const` of the caller's own) and the brackets that close the open objects, in time
 * proportional to the budget and the request's size.
 */
const MAX_DEPTH = 12;
/** Items an array holds at most, whatever its `minItems` (the budget ends most arrays sooner). */
const MAX_ITEMS = 1_000;

export interface ExampleBudget {
  full: { work: number; characters: number };
  bare: { work: number; characters: number };
}

/**
 * A realistic schema (a few hundred properties) stays well within `full`; the adversarial ones
 * stop at about 32 KB of JSON (about 16k tokens), which builds and tokenises in milliseconds.
 */
export const EXAMPLE_BUDGET: ExampleBudget = {
  full: { work: 4_000, characters: 16_384 },
  bare: { work: 16_000, characters: 32_768 },
};

type Mode = 'full' | 'minimal' | 'bare';

export function jsonExample(schema: Record<string, unknown>, text: string, budget: ExampleBudget = EXAMPLE_BUDGET): unknown {
  let textUsed = false;
  let work = 0;
  let characters = 0;
  const root = schema;

  const mode = (): Mode => {
    if (work > budget.bare.work || characters > budget.bare.characters) return 'bare';
    if (work > budget.full.work || characters > budget.full.characters) return 'minimal';
    return 'full';
  };

  /** A leaf of the example, counted as the JSON it becomes. */
  const leaf = <T>(value: T): T => {
    characters += JSON.stringify(value)?.length ?? 0;
    return value;
  };

  /** A `const` or `enum` value: the caller's own, given as is until the characters run out. */
  const given = (value: unknown): unknown => (characters > budget.bare.characters ? null : leaf(value));

  const stringFor = (name: string): string => {
    if (mode() === 'bare') return leaf('');
    if (textUsed) return leaf(name || 'sandbox');
    textUsed = true;
    return leaf(text);
  };

  /** What a local `$ref` names, looked up once per reference string (the same node is met again and again). */
  const resolved = new Map<unknown, unknown>();
  const resolve = (ref: unknown): unknown => {
    if (!resolved.has(ref)) resolved.set(ref, localRef(root, ref));
    return resolved.get(ref);
  };

  const example = (node: unknown, depth: number, name: string): unknown => {
    work += 1;
    if (!isRecord(node) || depth > MAX_DEPTH) return leaf(null);
    if (node.$ref !== undefined) return example(resolve(node.$ref), depth + 1, name);
    if (node.const !== undefined) return given(node.const);
    if (Array.isArray(node.enum) && node.enum.length > 0) return given(node.enum[0]);
    // Bare: no scan or merge whose cost grows with the schema; the first option (null, if so, is
    // valid too) or the first member of allOf, and the first type, are enough for the bare value.
    const bare = mode() === 'bare';
    const options = node.anyOf ?? node.oneOf;
    if (Array.isArray(options) && options.length > 0) {
      const found = bare ? 0 : options.findIndex((option) => !(isRecord(option) && option.type === 'null'));
      work += found === -1 ? options.length : found + 1;
      return example(options[found === -1 ? 0 : found], depth + 1, name);
    }
    if (Array.isArray(node.allOf) && node.allOf.length > 0) {
      if (bare) return example(node.allOf[0], depth + 1, name);
      const members = node.allOf.filter(isRecord);
      for (const member of members) work += Object.keys(member).length;
      const merged = Object.assign({}, ...members, { ...node, allOf: undefined });
      return example(merged, depth + 1, name);
    }
    const types = Array.isArray(node.type) ? (bare ? node.type.slice(0, 1) : node.type) : [node.type];
    work += types.length;
    const type =
      types.find((candidate) => candidate !== 'null' && candidate !== undefined) ??
      (node.properties ? 'object' : node.items ? 'array' : types[0]);
    switch (type) {
      case 'string':
        return stringFor(name);
      case 'integer':
        return leaf(typeof node.minimum === 'number' ? Math.ceil(node.minimum) : 0);
      case 'number':
        return leaf(typeof node.minimum === 'number' ? node.minimum : 0);
      case 'boolean':
        return leaf(false);
      case 'null':
        return leaf(null);
      case 'array':
        return arrayExample(node, depth, name);
      case 'object':
        return objectExample(node, depth);
      default:
        // No type: any JSON value; the reply as a string is one.
        return stringFor(name);
    }
  };

  const arrayExample = (node: Record<string, unknown>, depth: number, name: string): unknown[] => {
    characters += 2;
    const current = mode();
    if (current === 'bare') return [];
    const minItems = typeof node.minItems === 'number' && node.minItems >= 0 ? node.minItems : current === 'full' ? 1 : 0;
    let count = Math.min(minItems, MAX_ITEMS);
    if (typeof node.maxItems === 'number') count = Math.max(0, Math.min(count, node.maxItems));
    const items: unknown[] = [];
    for (let index = 0; index < count && characters <= budget.bare.characters; index += 1) {
      characters += 1;
      items.push(example(node.items, depth + 1, name));
    }
    return items;
  };

  const objectExample = (node: Record<string, unknown>, depth: number): Record<string, unknown> => {
    characters += 2;
    if (mode() === 'bare') return {};
    const properties = isRecord(node.properties) ? node.properties : {};
    const keys = Object.keys(properties);
    work += keys.length;
    let required: Set<unknown> | undefined;
    const entries: [string, unknown][] = [];
    // The mode is asked again for every property: the budget may run out half-way through an object,
    // and once the characters are spent even required properties are left out (see above).
    for (const key of keys) {
      if (characters > budget.bare.characters) break;
      if (mode() !== 'full') {
        if (!required) {
          const list = Array.isArray(node.required) ? node.required : [];
          work += list.length;
          required = new Set(list);
        }
        if (!required.has(key)) continue;
      }
      characters += (JSON.stringify(key)?.length ?? 0) + 2;
      entries.push([key, example(properties[key], depth + 1, key)]);
    }
    // fromEntries, not assignment: a property named `__proto__` stays a property.
    return Object.fromEntries(entries);
  };

  return example(schema, 0, '');
}
