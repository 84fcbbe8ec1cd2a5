import { Client } from 'undici';

/** The benchmark's chat request: a short prompt, as JSON or (with `stream`) as a streaming request. */
export function chatBody(stream: boolean): string {
  return JSON.stringify({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'You are a concise assistant.' },
      { role: 'user', content: 'Say something about foxes and dogs in one sentence.' },
    ],
    max_tokens: 64,
    ...(stream ? { stream: true } : {}),
  });
}

export interface LoadOptions {
  origin: string;
  connections: number;
  warmupMs: number;
  durationMs: number;
  stream: boolean;
  body: string;
  /** Headers for the n-th request (e.g. rotating API keys). */
  headers(sequence: number): Record<string, string>;
  /** Called when the measured window opens and closes (e.g. to read the server's CPU time). */
  onWindow?(edge: 'start' | 'end'): void;
}

export interface LoadResult {
  requests: number;
  /** Requests answered in the whole run, warm-up and drain included. */
  totalRequests: number;
  errors: number;
  seconds: number;
  /** Full request latencies, milliseconds, sorted. */
  latency: Float64Array;
  /** Time to the first body byte (streams), milliseconds, sorted. */
  firstByte: Float64Array;
  firstError: string | undefined;
}

export function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] as number;
}

/**
 * A closed-loop load generator: `connections` keep-alive connections, each sending its next
 * request as soon as the previous answer is complete. Latency is measured to the last byte;
 * for streams also to the first body byte.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const clients = Array.from(
    { length: options.connections },
    () => new Client(options.origin, { pipelining: 1, keepAliveTimeout: 60_000 }),
  );
  let recording = false;
  let stopping = false;
  let sequence = 0;
  let requests = 0;
  let totalRequests = 0;
  let errors = 0;
  let firstError: string | undefined;
  const latency: number[] = [];
  const firstByte: number[] = [];

  const worker = async (client: Client) => {
    while (!stopping) {
      const started = performance.now();
      let first = 0;
      try {
        const response = await client.request({
          path: '/v1/chat/completions',
          method: 'POST',
          headers: { 'content-type': 'application/json', ...options.headers(sequence++) },
          body: options.body,
        });
        for await (const _chunk of response.body) if (first === 0) first = performance.now();
        if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
      } catch (error) {
        if (recording) {
          errors += 1;
          firstError ??= (error as Error).message;
        }
        continue;
      }
      totalRequests += 1;
      if (!recording) continue;
      const ended = performance.now();
      requests += 1;
      latency.push(ended - started);
      if (options.stream) firstByte.push(first - started);
    }
  };

  const workers = clients.map(worker);
  await new Promise((resolve) => setTimeout(resolve, options.warmupMs));
  options.onWindow?.('start');
  recording = true;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, options.durationMs));
  recording = false;
  options.onWindow?.('end');
  const seconds = (performance.now() - started) / 1000;
  stopping = true;
  await Promise.all(workers);
  await Promise.all(clients.map((client) => client.close()));
  return {
    requests,
    totalRequests,
    errors,
    seconds,
    latency: Float64Array.from(latency).sort(),
    firstByte: Float64Array.from(firstByte).sort(),
    firstError,
  };
}
