/** A cheap one-shot cancellation (the client went away): cheaper per request than an AbortController. */
export interface Cancel {
  readonly aborted: boolean;
  /** Runs `listener` on cancellation (at once if already cancelled); returns the unsubscribe function. */
  onAbort(listener: () => void): () => void;
}

export class Cancellation implements Cancel {
  #aborted = false;
  #listeners: (() => void)[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  onAbort(listener: () => void): () => void {
    if (this.#aborted) {
      listener();
      return () => undefined;
    }
    this.#listeners ??= [];
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners?.indexOf(listener) ?? -1;
      if (index !== -1) this.#listeners?.splice(index, 1);
    };
  }
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

/** Waits `milliseconds`, or rejects with `CancelledError` as soon as `cancel` fires. */
export function sleep(milliseconds: number, cancel: Cancel): Promise<void> {
  return new Promise((resolve, reject) => {
    if (cancel.aborted) return reject(new CancelledError());
    const off = cancel.onAbort(() => {
      clearTimeout(timer);
      reject(new CancelledError());
    });
    const timer = setTimeout(() => {
      off();
      resolve();
    }, milliseconds);
  });
}
