import { hash, verify } from '@node-rs/argon2';

/** argon2id, 19 MiB, t=2, p=1 (decisions §2). `algorithm` is omitted: the default is argon2id. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
/** Bounded concurrent hashing: a flood of sign-ins cannot exhaust memory or CPU. */
const MAX_CONCURRENT = 4;

let active = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (active >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  active += 1;
  try {
    return await work();
  } finally {
    active -= 1;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return withSlot(() => hash(password, OPTIONS));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return withSlot(() => verify(passwordHash, password).catch(() => false));
}

/** A valid hash of a random password: verified against when the account does not exist, to keep timing even. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}
