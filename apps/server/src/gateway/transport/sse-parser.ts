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
  #data: string[] = [];
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
      this.#line(buffer.slice(start, end), events);
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
    if (rest !== '') this.#line(rest.replace(/\r$/, ''), events);
    this.#line('', events);
    return events;
  }

  #line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.#data.length > 0) events.push({ event: this.#event, data: this.#data.join('\n') });
      this.#data = [];
      this.#event = undefined;
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' comment
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
  }
}
