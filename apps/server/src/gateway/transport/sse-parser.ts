import type { SseEvent } from '../providers/types.ts';

/** The next line ending, CR or LF (a CRLF pair is one ending: its LF is skipped after the match). */
const LINE_END = /[\r\n]/g;

/** Longest line kept (UTF-16 units): far above any event a provider sends, streamed images included. */
export const MAX_SSE_LINE = 64 * 1024 * 1024;

/** An upstream sent a line longer than MAX_SSE_LINE without ending it: its stream is cut there. */
export class SseLineTooLongError extends Error {
  constructor() {
    super(`an event stream line longer than ${MAX_SSE_LINE / 1024 / 1024} M characters`);
    this.name = 'SseLineTooLongError';
  }
}

/**
 * An incremental Server-Sent Events parser (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 * bytes in, complete events out. Lines end in LF, CRLF or CR (a CR ends its line at once; an
 * LF opening the next chunk then completes the CRLF); `:` lines are comments; an event is
 * dispatched on a blank line when it has data. `id` and `retry` are ignored: the gateway never
 * reconnects upstream.
 */
export class SseParser {
  readonly #decoder = new TextDecoder();
  /** The unfinished last line, in the pieces it arrived in (joined once, when it ends). */
  #pending: string[] = [];
  #pendingLength = 0;
  /** The last chunk ended on a CR: an LF opening the next one belongs to that line ending. */
  #skipLineFeed = false;
  /** Nothing has arrived yet: a byte order mark opening the stream is dropped. */
  #first = true;
  /** The event's data so far (its lines joined by LF), undefined before its first `data` line. */
  #data: string | undefined;
  #event: string | undefined;

  /**
   * The events completed by `chunk`. Only the new text is scanned for line endings and an
   * unfinished line is kept in pieces, so a long line (a streamed image, say) arriving in many
   * chunks costs time in proportion to its length.
   */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    const events: SseEvent[] = [];
    if (text === '') return events;
    if (this.#first) {
      this.#first = false;
      // TextDecoder drops a BOM from bytes itself; a string chunk may still open with one.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.#skipLineFeed) {
      this.#skipLineFeed = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    const hasCarriageReturn = text.includes('\r', start);
    LINE_END.lastIndex = start;
    while (start < text.length) {
      let end: number;
      if (hasCarriageReturn) {
        const match = LINE_END.exec(text);
        if (!match) break;
        end = match.index;
      } else {
        end = text.indexOf('\n', start);
        if (end === -1) break;
      }
      let next = end + 1;
      if (text.charCodeAt(end) === 13) {
        if (next === text.length) this.#skipLineFeed = true;
        else if (text.charCodeAt(next) === 10) next += 1;
      }
      if (this.#pending.length > 0) {
        this.#pending.push(text.slice(start, end));
        const line = this.#pending.join('');
        this.#pending = [];
        this.#pendingLength = 0;
        this.#line(line, 0, line.length, events);
      } else {
        this.#line(text, start, end, events);
      }
      start = next;
      LINE_END.lastIndex = start;
    }
    if (start < text.length) {
      this.#pendingLength += text.length - start;
      if (this.#pendingLength > MAX_SSE_LINE) throw new SseLineTooLongError();
      this.#pending.push(start === 0 ? text : text.slice(start));
    }
    return events;
  }

  /** The stream ended: a last unterminated event is still delivered (lenient with upstreams that omit the final blank line). */
  end(): SseEvent[] {
    // What the decoder still holds (a cut-off character) ends the last line, and a blank line the last event.
    const events = this.push(`${this.#decoder.decode()}\n`);
    this.#line('', 0, 0, events);
    this.#pending = [];
    this.#pendingLength = 0;
    this.#skipLineFeed = false;
    return events;
  }

  /** One line, `buffer[start, end)` (sliced only for what it keeps). */
  #line(buffer: string, start: number, end: number, events: SseEvent[]): void {
    if (start === end) {
      if (this.#data !== undefined) events.push({ event: this.#event, data: this.#data });
      this.#data = undefined;
      this.#event = undefined;
      return;
    }
    if (buffer.charCodeAt(start) === 58) return; // ':' comment
    let colon = buffer.indexOf(':', start);
    if (colon === -1 || colon > end) colon = end;
    let from = colon < end ? colon + 1 : end;
    if (from < end && buffer.charCodeAt(from) === 32) from += 1;
    const length = colon - start;
    if (length === 4 && buffer.startsWith('data', start)) {
      const value = buffer.slice(from, end);
      this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
    } else if (length === 5 && buffer.startsWith('event', start)) {
      this.#event = buffer.slice(from, end);
    }
  }
}
