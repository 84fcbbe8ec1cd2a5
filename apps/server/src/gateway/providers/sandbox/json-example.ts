import { isRecord } from '../../../lib/is-record.ts';
import { localRef } from '../common/response-format.ts';

/**
 * The sandbox's structured answer: a deterministic JSON value of the caller's JSON Schema, so
 * code that parses a `json_schema` answer can be tested with a test key. Strings take `text`
 * (the sandbox's reply) the first time and the property's name after that; enums and `const`
 * take their first value; numbers their `minimum` or 0; arrays hold `minItems` items (at least
 * one); objects every declared property. Local `$ref`s are followed; a schema too deep, a cycle,
 * or a construct it cannot satisfy gives the simplest value of the type asked for.
 */
const MAX_DEPTH = 12;

export function jsonExample(schema: Record<string, unknown>, text: string): unknown {
  let textUsed = false;
  const root = schema;

  const stringFor = (name: string): string => {
    if (textUsed) return name || 'sandbox';
    textUsed = true;
    return text;
  };

  const example = (node: unknown, depth: number, name: string): unknown => {
    if (!isRecord(node) || depth > MAX_DEPTH) return null;
    if (node.$ref !== undefined) return example(localRef(root, node.$ref), depth + 1, name);
    if (node.const !== undefined) return node.const;
    if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
    const options = node.anyOf ?? node.oneOf;
    if (Array.isArray(options) && options.length > 0) {
      const chosen = options.find((option) => !(isRecord(option) && option.type === 'null')) ?? options[0];
      return example(chosen, depth + 1, name);
    }
    if (Array.isArray(node.allOf) && node.allOf.length > 0) {
      const merged = Object.assign({}, ...node.allOf.filter(isRecord), { ...node, allOf: undefined });
      return example(merged, depth + 1, name);
    }
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const type =
      types.find((candidate) => candidate !== 'null' && candidate !== undefined) ??
      (node.properties ? 'object' : node.items ? 'array' : types[0]);
    switch (type) {
      case 'string':
        return stringFor(name);
      case 'integer':
        return typeof node.minimum === 'number' ? Math.ceil(node.minimum) : 0;
      case 'number':
        return typeof node.minimum === 'number' ? node.minimum : 0;
      case 'boolean':
        return false;
      case 'null':
        return null;
      case 'array': {
        let count = Math.min(Math.max(typeof node.minItems === 'number' ? node.minItems : 1, 1), 3);
        if (typeof node.maxItems === 'number') count = Math.max(0, Math.min(count, node.maxItems));
        return Array.from({ length: count }, () => example(node.items, depth + 1, name));
      }
      case 'object': {
        const properties = isRecord(node.properties) ? node.properties : {};
        return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, example(value, depth + 1, key)]));
      }
      default:
        // No type: any JSON value; the reply as a string is one.
        return stringFor(name);
    }
  };

  return example(schema, 0, '');
}
