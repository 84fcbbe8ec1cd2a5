/**
 * Preloaded (`node --expose-gc --import memory-probe.ts`) into servers that the fault, load and
 * scale-out tests spawn: answers `{ type: 'memory' }` on the IPC channel with the process's
 * memory after a full garbage collection, so tests measure what is retained, not garbage that
 * has not been collected yet. Without an IPC channel it does nothing.
 */
interface ProbeMessage {
  type?: string;
  id?: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

if (process.send) {
  process.on('message', (message: ProbeMessage) => {
    if (message?.type !== 'memory') return;
    const before = process.memoryUsage();
    gc?.();
    const after = process.memoryUsage();
    process.send?.({
      type: 'memory',
      id: message.id,
      rss: after.rss,
      heapUsed: after.heapUsed,
      heapUsedBeforeGc: before.heapUsed,
      external: after.external,
      arrayBuffers: after.arrayBuffers,
    });
  });
  // The IPC channel must not keep the server alive on its own.
  process.channel?.unref();
}
