import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../providers/types.ts';
import { MAX_SSE_LINE, SseLineTooLongError, SseParser } from './sse-parser.ts';

/**
 * SseParser against a reference of the WHATWG "event stream interpretation" rules
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation),
 * over streams split at random byte boundaries, truncated anywhere. One deliberate difference:
 * at the end of the stream an event without its closing blank line is still delivered.
 */

const bytes = (text: string) => new TextEncoder().encode(text);

/**
 * Reference: the spec's algorithm over the whole byte stream at once.
 * `atEof: 'none'` is the spec (an unterminated last event is dropped at EOF);
 * `atEof: 'dispatch'` is the leniency SseParser.end() documents (the unterminated last line is read, then the event is dispatched).
 */
function reference(input: Uint8Array, atEof: 'dispatch' | 'none'): SseEvent[] {
  // Decode (non-streaming, replacement on errors, one leading BOM stripped): what the spec's UTF-8 decode does.
  const text = new TextDecoder().decode(input);
  const events: SseEvent[] = [];
  let data = '';
  let sawData = false; // tracks "data buffer non-empty" (a data line always appends at least LF)
  let type: string | undefined;
  const line = (l: string) => {
    if (l === '') {
      if (sawData) events.push({ event: type === '' ? undefined : type, data });
      data = '';
      sawData = false;
      type = undefined;
      return;
    }
    if (l.startsWith(':')) return;
    const colon = l.indexOf(':');
    const field = colon === -1 ? l : l.slice(0, colon);
    let value = colon === -1 ? '' : l.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data = sawData ? `${data}\n${value}` : value;
      sawData = true;
    } else if (field === 'event') type = value;
  };
  // Complete lines are those followed by CRLF, CR or LF; what follows the last terminator is incomplete.
  const re = /\r\n|\r|\n/g;
  let last = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    line(text.slice(last, m.index));
    last = m.index + m[0].length;
  }
  if (atEof === 'dispatch') {
    const rest = text.slice(last);
    if (rest !== '') line(rest);
    line('');
  }
  return events;
}

/** Normalises `event: ''` to undefined (the spec maps an empty type to the default, like no type). */
const norm = (events: SseEvent[]) => events.map((e) => ({ event: e.event === '' ? undefined : e.event, data: e.data }));

function runChunked(parser: SseParser, input: Uint8Array, points: number[]): SseEvent[] {
  const events: SseEvent[] = [];
  let from = 0;
  for (const point of [...points, input.length]) {
    events.push(...parser.push(input.slice(from, point)));
    from = point;
  }
  return events;
}

// A generator of realistic-and-hostile byte streams: field lines, comments, BOM, all line endings,
// multi-byte characters, then optionally truncated at an arbitrary BYTE (a connection dropped mid-stream).
const value = fc.string({ unit: fc.constantFrom('a', ' ', ':', 'é', '✓', '😀', '{', '"'), maxLength: 6 });
const lineArb = fc.oneof(
  value.map((t) => `data:${t}`),
  value.map((t) => `data: ${t}`),
  value.map((t) => `event: ${t}`),
  value.map((t) => `: ${t}`),
  value.map((t) => `id: ${t}`),
  fc.constantFrom('', 'data', 'event', 'retry: 5', 'é'),
);
const streamArb = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(lineArb, fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 10 }), fc.nat(), fc.boolean())
  .map(([bom, parts, cut, truncate]) => {
    const encoded = bytes((bom ? '\uFEFF' : '') + parts.map(([t, e]) => t + e).join(''));
    return truncate ? encoded.slice(0, cut % (encoded.length + 1)) : encoded;
  });

describe('SseParser against the spec', () => {
  it('property: chunked parse + end() equals the lenient reference for streams truncated at any byte', () => {
    // Includes e.g. "data: a\r" followed by a lone 0xC3 (a truncated "é"), also pinned by the targeted test below.
    fc.assert(
      fc.property(streamArb, fc.array(fc.nat(), { maxLength: 4 }), (input, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
        const parser = new SseParser();
        const events = [...runChunked(parser, input, points), ...parser.end()];
        expect(norm(events)).toEqual(reference(input, 'dispatch'));
      }),
      { numRuns: 3000, seed: 42 },
    );
  });

  it('end(): a line ended by a CR, then a cut-off UTF-8 character, is read as it was', () => {
    // Upstream sent "data: a\r" then the first byte of "é" (0xC3) and closed the connection.
    // Lines per spec: "data: a" (terminated by CR), then "\uFFFD" (an unknown field, ignored).
    const input = new Uint8Array([...bytes('data: a\r'), 0xc3]);
    const parser = new SseParser();
    const events = [...parser.push(input), ...parser.end()];
    // Under the module's own lenient rule at the end of the stream: data "a".
    expect(events).toEqual([{ event: undefined, data: 'a' }]);
  });

  it('property: push() emits every event as soon as its terminating blank line has arrived (no latency)', () => {
    // Including a chunk that ends with the lone CR closing the blank line (the event must not wait for the next chunk).
    fc.assert(
      fc.property(streamArb, fc.array(fc.nat(), { maxLength: 4 }), (input, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
        const parser = new SseParser();
        const seen: SseEvent[] = [];
        let from = 0;
        for (const point of [...points, input.length]) {
          seen.push(...parser.push(input.slice(from, point)));
          from = point;
          // Everything that the spec has dispatched for bytes [0, point) must be out by now
          // (ignoring a trailing incomplete UTF-8 sequence, which the reference would decode as U+FFFD).
          let complete = point;
          while (complete > 0 && (input[complete - 1]! & 0xc0) === 0x80) complete -= 1;
          if (complete > 0 && input[complete - 1]! >= 0xc0) complete -= 1;
          else complete = point;
          expect(norm(seen)).toEqual(reference(input.slice(0, complete), 'none'));
        }
      }),
      { numRuns: 3000, seed: 42 },
    );
  });

  it('a lone-CR blank line at the end of a chunk dispatches at once', () => {
    const parser = new SseParser();
    // The spec's line ends at the CR; only a following LF would need to be skipped.
    expect(parser.push('data: a\r\r')).toEqual([{ event: undefined, data: 'a' }]);
  });

  it('CRLF stream: a chunk boundary between the final CR and LF does not delay the event', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r\n\r')).toEqual([{ event: undefined, data: 'a' }]);
  });

  it('a leading BOM is dropped from a string chunk as from bytes', () => {
    const parser = new SseParser();
    // "\uFEFFdata: a" - with the BOM kept, the field name is "\uFEFFdata" and the event is lost.
    expect([...parser.push('\uFEFFdata: a\n\n'), ...parser.end()]).toEqual([{ event: undefined, data: 'a' }]);
  });

  it('refuses a line longer than MAX_SSE_LINE instead of growing without bound', () => {
    const parser = new SseParser();
    const piece = 'A'.repeat(1024 * 1024);
    expect(parser.push('data: {"ok":1}\n\ndata: ')).toEqual([{ event: undefined, data: '{"ok":1}' }]);
    let error: unknown;
    try {
      for (let sent = 0; sent <= MAX_SSE_LINE; sent += piece.length) parser.push(piece);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SseLineTooLongError);
  });
});
