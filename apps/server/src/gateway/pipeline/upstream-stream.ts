import type { ServerResponse } from 'node:http';
import { CHARS_PER_TOKEN, PROVIDER_NAMES } from '@conductor/shared';
import type { ChatCompletionChunk, Usage } from '@conductor/shared/openai/chat';
import { sseData } from '../providers/common/chunks.ts';
import { ProviderProtocolError } from '../providers/common/stream-error.ts';
import type { SseEvent, StreamParser } from '../providers/types.ts';
import { type AnswerEnd, AttemptFailure, type ResolvedTarget } from '../routing/failover.ts';
import { SseLineTooLongError, SseParser } from '../transport/sse-parser.ts';
import type { UpstreamCall } from '../transport/upstream-client.ts';
import { SHUTDOWN_ERROR_CODE, ServerShutdownError, sseShutdownError } from './open-streams.ts';
import { SSE_DONE, sseError } from './responses.ts';
import { buildUpstreamRequest, type Exchange, failureFrom, isSuccess, rejectStatus, startUpstream } from './upstream-json.ts';

/** An upstream stream that has produced its first chunks but sent nothing to the client yet. */
export interface OpenedStream {
  target: ResolvedTarget;
  call: UpstreamCall;
  sse: SseParser;
  parser: StreamParser;
  /** Chunks mapped but not yet written. */
  pending: ChatCompletionChunk[];
  usage: Usage | undefined;
  /** The upstream signalled the end (`[DONE]`, `message_stop`, …). */
  done: boolean;
  /** A chunk with a finish reason went by (some upstreams end with EOF alone). */
  finished: boolean;
  /**
   * Output went by: text or a finish reason. Until then (a role-only opening chunk, an Anthropic
   * `message_start`) nothing is committed, so an error the provider sends next still fails over.
   */
  output: boolean;
}

/** Maps the events in one body chunk (or, with `null`, the end of the body); throws what the adapter throws. */
function feed(stream: OpenedStream, chunk: Buffer | null): void {
  let events: SseEvent[];
  try {
    events = chunk === null ? stream.sse.end() : stream.sse.push(chunk);
  } catch (error) {
    if (error instanceof SseLineTooLongError) throw new ProviderProtocolError(PROVIDER_NAMES[stream.target.model.provider], error.message);
    throw error;
  }
  for (const event of events) {
    if (stream.done) return;
    const step = stream.parser.push(event);
    for (const mapped of step.chunks) {
      if (!stream.output || !stream.finished) {
        for (const choice of mapped.choices) {
          if (choice.finish_reason !== null) stream.finished = stream.output = true;
          else if (choice.delta.content) stream.output = true;
        }
      }
      stream.pending.push(mapped);
    }
    if (step.usage) stream.usage = step.usage;
    if (step.done) stream.done = true;
  }
}

function streamFailure(target: ResolvedTarget, label: 'empty-stream' | 'truncated', message: string): AttemptFailure {
  return new AttemptFailure(
    { status: 502, type: 'upstream_error', disposition: 'fallback', message: `${PROVIDER_NAMES[target.model.provider]}: ${message}` },
    label,
    true,
  );
}

/**
 * One streaming attempt, up to the first chunk: failures until then (status, reset, timeout,
 * an in-stream error event) are ordinary attempt failures, so the router can still fail over.
 */
export async function openStream(exchange: Exchange, target: ResolvedTarget): Promise<OpenedStream> {
  const upstream = buildUpstreamRequest(exchange, target);
  const started = performance.now();
  try {
    const call = await startUpstream(exchange, target, upstream);
    if (!isSuccess(call)) return await rejectStatus(exchange, target, call);
    const stream: OpenedStream = {
      target,
      call,
      sse: new SseParser(),
      parser: target.adapter.createStreamParser(target.model.id, exchange.runtime.adapterContext),
      pending: [],
      usage: undefined,
      done: false,
      finished: false,
      output: false,
    };
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: unknown) => {
        // Detached, the call keeps what arrives until the pump attaches (moments later).
        call.attach(undefined);
        if (error === undefined) {
          resolve();
        } else {
          call.abort();
          reject(error);
        }
      };
      call.attach({
        data(chunk) {
          try {
            feed(stream, chunk);
          } catch (error) {
            return settle(error);
          }
          if (stream.output || stream.done) settle();
        },
        end() {
          try {
            feed(stream, null);
          } catch (error) {
            return settle(error);
          }
          settle();
        },
        error: settle,
      });
    });
    // Data settles only once there is output or a finish; an end settles either way.
    if (!(stream.output || stream.done) || stream.pending.length === 0)
      throw streamFailure(target, 'empty-stream', 'the stream ended before any output.');
    return stream;
  } catch (error) {
    throw failureFrom(error, target, exchange.cancel);
  } finally {
    exchange.upstreamMs += performance.now() - started;
  }
}

export interface StreamOutcome {
  status: number;
  errorType: string | null;
  usage: Usage;
}

/**
 * Forwards the stream to the client after the first byte: no failover is possible any more, so
 * a break (reset, idle timeout, in-stream error, EOF before the finish) ends the response with
 * an explicit SSE error event and no `[DONE]`. Usage chunks go through only when the client
 * asked (`stream_options.include_usage`); one is synthesised from estimates if the upstream
 * sent none. Backpressure: a full client socket pauses the upstream socket. A client that goes
 * away aborts the upstream request (through the exchange's cancellation). A server shutdown
 * ends the stream the same way as a break, with its own error event (`server_shutting_down`).
 */
export function pumpStream(
  exchange: Exchange,
  stream: OpenedStream,
  response: ServerResponse,
  options: {
    includeUsage: boolean;
    promptEstimate: number;
    /** Work done with the final usage before the end marker goes out (a promise holds it back). */
    beforeEnd?: (usage: Usage) => Promise<unknown> | undefined;
    /** How the upstream's part ended (for its breaker): complete, broken by it (reset, idle timeout, error event, cut short), or left by the client. */
    onEnd?: (end: AnswerEnd) => void;
  },
): Promise<StreamOutcome> {
  const { call } = stream;
  let completionCharacters = 0;
  let usageSent = false;
  let last: ChatCompletionChunk | undefined;
  let over = false;
  let untrack: (() => void) | undefined;

  const usageSoFar = (): Usage => {
    if (stream.usage) return stream.usage;
    const completion = Math.ceil(completionCharacters / CHARS_PER_TOKEN);
    return { prompt_tokens: options.promptEstimate, completion_tokens: completion, total_tokens: options.promptEstimate + completion };
  };
  /** The pending chunks as SSE text (usage chunks only when asked for). */
  const take = (): string => {
    let text = '';
    for (const chunk of stream.pending) {
      if (chunk.choices.length === 0 && chunk.usage) {
        if (!options.includeUsage || usageSent) continue;
        usageSent = true;
      }
      for (const choice of chunk.choices) completionCharacters += choice.delta.content?.length ?? 0;
      last = chunk;
      text += sseData(chunk);
    }
    stream.pending = [];
    return text;
  };
  /** Writes the pending chunks; false when the client socket is full. */
  const flush = (): boolean => {
    const text = take();
    if (text === '' || response.destroyed) return true;
    return response.write(text);
  };

  return new Promise<StreamOutcome>((resolve) => {
    const onDrain = () => call.resume();
    response.on('drain', onDrain);
    let ended = false;
    /** The upstream's verdict, given once: the first end it reaches. */
    const upstreamEnded = (end: AnswerEnd) => {
      if (ended) return;
      ended = true;
      options.onEnd?.(end);
    };
    const finish = (outcome: StreamOutcome) => {
      over = true;
      untrack?.();
      response.off('drain', onDrain);
      upstreamEnded(outcome.status === 499 ? 'abandoned' : 'complete');
      resolve(outcome);
    };
    /** The last chunks, the usage chunk if owed, and `[DONE]` in one write. */
    const complete = () => {
      let text = take();
      const usage = usageSoFar();
      if (options.includeUsage && !usageSent && last) {
        text += sseData({ id: last.id, object: 'chat.completion.chunk', created: last.created, model: last.model, choices: [], usage });
      }
      // What follows the end marker is read and dropped, so the keep-alive connection is reused.
      call.resume();
      upstreamEnded('complete');
      const end = () => {
        response.end(text + SSE_DONE);
        finish({ status: 200, errorType: null, usage });
      };
      const before = options.beforeEnd?.(usage);
      if (!before) return end();
      over = true; // the upstream is done: nothing it sends now is fed
      const endAfterWait = () => {
        // The client went away meanwhile: its answer is cut short, as any disconnect is.
        if (response.destroyed || exchange.cancel.aborted) return finish({ status: 499, errorType: 'client_closed', usage });
        end();
      };
      void before.then(endAfterWait, endAfterWait);
    };
    const fail = (error: unknown) => {
      // Before the abort, whose error event (a reset) must not fail the stream a second time.
      over = true;
      call.abort();
      if (exchange.cancel.aborted || response.destroyed) return finish({ status: 499, errorType: 'client_closed', usage: usageSoFar() });
      if (error instanceof ServerShutdownError) {
        // Not the upstream's doing: its breaker counts it neither way.
        upstreamEnded('abandoned');
        flush();
        response.end(sseShutdownError());
        return finish({ status: 503, errorType: SHUTDOWN_ERROR_CODE, usage: usageSoFar() });
      }
      const failure = failureFrom(error, stream.target, exchange.cancel);
      if (failure instanceof AttemptFailure && failure.unhealthy) upstreamEnded('broken');
      const reason = failure instanceof AttemptFailure ? ` (${failure.upstream.message})` : '';
      response.end(
        sseError(
          `The upstream stream broke after it had started${reason}; the answer above is incomplete.`,
          'upstream_error',
          'stream_interrupted',
        ),
      );
      exchange.runtime.log.warn(
        { provider: stream.target.model.provider, model: stream.target.model.id, reason: failure.message },
        'stream broke mid-way',
      );
      finish({ status: 502, errorType: 'stream_interrupted', usage: usageSoFar() });
    };
    const afterFeed = () => {
      if (stream.done) complete();
      else if (!flush()) call.pause();
    };

    afterFeed();
    if (over) return;
    // Before attaching: the call replays what it buffered at once, which may finish the stream (and untrack it) right there.
    untrack = exchange.runtime.streams.track(() => {
      if (!over) fail(new ServerShutdownError());
    });
    call.attach({
      data(chunk) {
        if (over) return;
        try {
          feed(stream, chunk);
        } catch (error) {
          return fail(error);
        }
        afterFeed();
      },
      end() {
        if (over) return;
        try {
          feed(stream, null);
        } catch (error) {
          return fail(error);
        }
        if (stream.done || stream.finished) complete();
        else {
          flush();
          fail(streamFailure(stream.target, 'truncated', 'the provider closed the stream before finishing.'));
        }
      },
      error(error) {
        if (!over) fail(error);
      },
    });
  });
}
