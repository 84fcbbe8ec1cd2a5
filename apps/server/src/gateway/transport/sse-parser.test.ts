import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSseTranscript } from '../../../test/fake-upstreams/fixtures.ts';
import { SseParser } from './sse-parser.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('SseParser', () => {
  it('parses events split anywhere across chunks, with every line ending', () => {
    const stream =
      'event: message_start\r\ndata: {"a":1}\r\n\r\n: comment\n\ndata: line one\ndata: line two\n\ndata:no-space\r\rdata: [DONE]\n\n';
    for (let split = 1; split < stream.length; split += 1) {
      const parser = new SseParser();
      const events = [...parser.push(bytes(stream.slice(0, split))), ...parser.push(bytes(stream.slice(split))), ...parser.end()];
      expect(events).toEqual([
        { event: 'message_start', data: '{"a":1}' },
        { event: undefined, data: 'line one\nline two' },
        { event: undefined, data: 'no-space' },
        { event: undefined, data: '[DONE]' },
      ]);
    }
  });

  it('keeps multi-byte characters split between chunks intact', () => {
    const encoded = bytes('data: héllo wörld ✓\n\n');
    const parser = new SseParser();
    const events = [...parser.push(encoded.slice(0, 8)), ...parser.push(encoded.slice(8, 15)), ...parser.push(encoded.slice(15))];
    expect(events).toEqual([{ event: undefined, data: 'héllo wörld ✓' }]);
  });

  it('delivers a final event that lacks the closing blank line, and drops events without data', () => {
    const parser = new SseParser();
    expect(parser.push('event: ping\n\n')).toEqual([]);
    expect(parser.push('data: last')).toEqual([]);
    expect(parser.end()).toEqual([{ event: undefined, data: 'last' }]);
  });

  it('reads what the specification reads, for any lines, line endings and chunk boundaries', () => {
    const value = fc.string({ unit: fc.constantFrom('a', ' ', ':', 'é', '✓', 'x', '{', '"'), maxLength: 8 });
    const line = fc.oneof(
      value.map((text) => `data:${text}`),
      value.map((text) => `data: ${text}`),
      value.map((text) => `event: ${text}`),
      value.map((text) => `: ${text}`),
      value.map((text) => `id: ${text}`),
      fc.constantFrom('', 'data', 'event', 'retry: 5'),
    );
    const stream = fc
      .array(fc.tuple(line, fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 12 })
      .map((parts) => parts.map(([text, ending]) => text + ending).join(''));
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 3 }), (text, cuts) => {
        const encoded = bytes(text);
        const points = [...new Set(cuts.map((cut) => cut % (encoded.length + 1)))].sort((a, b) => a - b);
        const parser = new SseParser();
        const events = [];
        let from = 0;
        for (const point of [...points, encoded.length]) {
          events.push(...parser.push(encoded.slice(from, point)));
          from = point;
        }
        events.push(...parser.end());
        // The transcript reader is the specification's algorithm line by line, ending the last event at the end of the text, as end() does.
        expect(events).toEqual(parseSseTranscript(text));
      }),
    );
  });
});
