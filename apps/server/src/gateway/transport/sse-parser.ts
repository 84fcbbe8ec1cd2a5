import type { SseEvent } from '../providers/types.ts';

/**
 * An incremental Server-Sent Events parser (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 * bytes in, complete events out. Lines end in LF, CRLF or CR (a CR at the end of a chunk waits
 * for the next one); `:` lines are comments; an event is dispatched on a blank line when it
 * has data. `id` and `retry` are ignored: the gateway never reconnects upstream.
 */
export class SseParser {
  readonly #decoder = new TextDecoder();
  #buffer = '';
  /** The event's data so far (its lines joined by LF), undefined before its first `data` line. */
  #data: string | undefined;
  #event: string | undefined;

  push(chunk: Uint8Array | string): SseEvent[] {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    const buffer = this.#buffer === '' ? text : this.#buffer + text;
    const events: SseEvent[] = [];
    const hasCarriageReturn = buffer.includes('\r');
    let start = 0;
    while (start < buffer.length) {
      let end: number;
      let next: number;
      const lineFeed = buffer.indexOf('\n', start);
      if (hasCarriageReturn) {
        const carriageReturn = buffer.indexOf('\r', start);
        if (carriageReturn !== -1 && (lineFeed === -1 || carriageReturn < lineFeed)) {
          if (carriageReturn === buffer.length - 1) break;
          end = carriageReturn;
          next = buffer.charCodeAt(carriageReturn + 1) === 10 ? carriageReturn + 2 : carriageReturn + 1;
        } else if (lineFeed !== -1) {
          end = lineFeed;
          next = lineFeed + 1;
        } else break;
      } else if (lineFeed !== -1) {
        end = lineFeed;
        next = lineFeed + 1;
      } else break;
      this.#line(buffer, start, end, events);
      start = next;
    }
    this.#buffer = start === 0 ? buffer : buffer.slice(start);
    return events;
  }

  /** The stream ended: a last unterminated event is still delivered (lenient with upstreams that omit the final blank line). */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    const rest = this.#buffer + this.#decoder.decode();
    this.#buffer = '';
    const line = rest.replace(/\r$/, '');
    if (line !== '') this.#line(line, 0, line.length, events);
    this.#line('', 0, 0, events);
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
