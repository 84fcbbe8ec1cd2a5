import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProviderId } from '@conductor/shared';
import type { SseEvent } from '../../src/gateway/providers/types.ts';

const PROVIDERS_DIR = path.resolve(import.meta.dirname, '../../src/gateway/providers');

/** An error fixture: the status, headers and body an upstream answers with. */
export interface ErrorFixture {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export function fixturePath(provider: ProviderId, name: string): string {
  return path.join(PROVIDERS_DIR, provider, '__fixtures__', name);
}

export function fixtureText(provider: ProviderId, name: string): string {
  return readFileSync(fixturePath(provider, name), 'utf8');
}

export function fixtureJson(provider: ProviderId, name: string): unknown {
  return JSON.parse(fixtureText(provider, name));
}

export function errorFixture(provider: ProviderId, name: string): ErrorFixture {
  const value = fixtureJson(provider, name) as ErrorFixture;
  return { status: value.status, headers: value.headers ?? {}, body: value.body };
}

/**
 * Splits a raw SSE transcript into events as the WHATWG algorithm does: blank lines end an
 * event, `event:` names it, `data:` lines join with `\n`, `:` lines are comments.
 * https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export function parseSseTranscript(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let name: string | undefined;
  let data: string[] = [];
  const flush = () => {
    if (data.length > 0) events.push({ event: name, data: data.join('\n') });
    name = undefined;
    data = [];
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      flush();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  flush();
  return events;
}

/** The raw SSE blocks of a transcript (each ending in a blank line), for replaying it piece by piece. */
export function sseBlocks(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => `${block}\n\n`);
}
