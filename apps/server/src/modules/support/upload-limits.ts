import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../../context.ts';
import { addressBucket } from '../../lib/client-address.ts';
import { AppError } from '../../lib/errors.ts';
import { createLimiter } from '../auth/limiter.ts';

const MB = 1024 * 1024;

/**
 * How much attachment work the ticket form may cause at once and per day (ADR 0011). Each upload
 * is held in memory and written to the database as one `bytea` value; on the embedded database
 * that write takes seconds per megabyte and holds up every other query, so it is rationed.
 */
export const UPLOAD_LIMITS = {
  /** Tickets with attachments read and stored at the same time by one server process. */
  inFlight: 2,
  /** ...of which from one client address (an IPv6 /64 counts as one). */
  inFlightPerAddress: 1,
  /**
   * ...of which from signed-out senders (`countsAsVisitor`): the rest stay for confirmed accounts,
   * so that a few addresses sending slowly cannot keep every customer from attaching files.
   */
  visitorInFlight: 1,
  /** What a refused sender is told to wait (Retry-After) when the uploads in flight are full. */
  busyRetrySeconds: 30,
  /** An upload holding a place longer than this is stopped, so that slow senders cannot keep the places. */
  readSeconds: 180,
  /** Bytes of attachments a day from signed-out senders of one client address (two full tickets). */
  visitorBytesPerAddressPerDay: 50 * MB,
  /** Bytes of attachments a day from all signed-out senders together. */
  visitorBytesPerDay: 200 * MB,
} as const;

export type UploadLimits = { -readonly [Key in keyof typeof UPLOAD_LIMITS]: number };

/** What the sender is told: server-side text, not in the spec (it names no such limit). */
export const UPLOAD_MESSAGES = {
  busy: (seconds: number) =>
    `We are receiving other attachments right now. Try again in ${seconds} seconds, or send your ticket without attachments.`,
  addressBusy: 'A ticket with attachments from your network is still being uploaded. Wait until it has been sent, then try again.',
  tooSlow: (seconds: number) =>
    `The attachments took longer than ${Math.round(seconds / 60)} minutes to upload, so the ticket was not sent. Attach smaller files, or try again on a faster connection.`,
  addressBudget: `Signed-out visitors can attach up to ${UPLOAD_LIMITS.visitorBytesPerAddressPerDay / MB} MB a day from one network, and yours has reached that. Sign in to attach more, or send your ticket without attachments.`,
  globalBudget:
    'Attachments from signed-out visitors have reached their limit for today. Sign in to attach files, or send your ticket without attachments.',
} as const;

/** A refusal that the error handler's AppError codes cannot express (503, 408): the route sends it in the same envelope. */
export class UploadRefusal extends Error {
  readonly statusCode: 503 | 408;
  readonly code: 'attachments_busy' | 'upload_timeout';
  readonly retryAfterSeconds: number | undefined;

  constructor(statusCode: 503 | 408, code: 'attachments_busy' | 'upload_timeout', message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'UploadRefusal';
    this.statusCode = statusCode;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The upload places of one server process: `inFlight` in all, `inFlightPerAddress` per client
 * address, `visitorInFlight` for signed-out senders.
 */
export class UploadSlots {
  private total = 0;
  private visitors = 0;
  private readonly byAddress = new Map<string, number>();
  private readonly limits: Pick<UploadLimits, 'inFlight' | 'inFlightPerAddress' | 'visitorInFlight'>;

  constructor(limits: Pick<UploadLimits, 'inFlight' | 'inFlightPerAddress' | 'visitorInFlight'>) {
    this.limits = limits;
  }

  get inFlight(): number {
    return this.total;
  }

  /** A place for `bucket` (release it exactly once: the function returned does nothing the second time), or why not. */
  take(bucket: string, visitor = false): (() => void) | 'address' | 'server' {
    const mine = this.byAddress.get(bucket) ?? 0;
    if (mine >= this.limits.inFlightPerAddress) return 'address';
    if (this.total >= this.limits.inFlight) return 'server';
    if (visitor && this.visitors >= this.limits.visitorInFlight) return 'server';
    this.total += 1;
    if (visitor) this.visitors += 1;
    this.byAddress.set(bucket, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      if (visitor) this.visitors -= 1;
      const left = (this.byAddress.get(bucket) ?? 1) - 1;
      if (left > 0) this.byAddress.set(bucket, left);
      else this.byAddress.delete(bucket);
    };
  }
}

/** A charge against the daily budgets, given back when the ticket is not stored after all. */
export type BudgetCharge = { refund(): Promise<void> };

/**
 * The daily attachment budgets of signed-out senders, per client address and for all of them:
 * counted in Redis when configured (shared by every instance, under GATEWAY_REDIS_PREFIX), else
 * in memory. When both stores fail, uploads are allowed (logged), as the module's other limits do.
 */
export class VisitorBudget {
  readonly perAddress: RateLimiterAbstract;
  readonly global: RateLimiterAbstract;

  constructor(redis: Redis | null, redisPrefix: string, limits: Pick<UploadLimits, 'visitorBytesPerAddressPerDay' | 'visitorBytesPerDay'>) {
    const day = 24 * 60 * 60;
    this.perAddress = createLimiter({
      name: 'support-attachment-bytes',
      redis,
      keyPrefix: `${redisPrefix}rl:ip:support-attachment-bytes`,
      points: limits.visitorBytesPerAddressPerDay,
      durationSeconds: day,
    });
    this.global = createLimiter({
      name: 'support-attachment-bytes-all',
      redis,
      keyPrefix: `${redisPrefix}rl:global:support-attachment-bytes`,
      points: limits.visitorBytesPerDay,
      durationSeconds: day,
    });
  }

  /**
   * The bytes `bucket` may still attach today, and the 429 for going past them; throws that 429 at
   * once when nothing is left. Consumes nothing.
   */
  async remaining(request: FastifyRequest, bucket: string): Promise<{ bytes: number; refusal: () => AppError }> {
    try {
      const [mine, all] = await Promise.all([this.perAddress.get(bucket), this.global.get(GLOBAL_KEY)]);
      const mineLeft = this.perAddress.points - (mine?.consumedPoints ?? 0);
      const allLeft = this.global.points - (all?.consumedPoints ?? 0);
      if (mineLeft <= 0) throw budgetExhausted(UPLOAD_MESSAGES.addressBudget, mine);
      if (allLeft <= 0) throw budgetExhausted(UPLOAD_MESSAGES.globalBudget, all);
      return mineLeft <= allLeft
        ? { bytes: mineLeft, refusal: () => budgetExhausted(UPLOAD_MESSAGES.addressBudget, mine) }
        : { bytes: allLeft, refusal: () => budgetExhausted(UPLOAD_MESSAGES.globalBudget, all) };
    } catch (error) {
      if (error instanceof AppError) throw error;
      request.log.warn({ err: error }, 'attachment budget unavailable; upload allowed');
      return { bytes: Number.POSITIVE_INFINITY, refusal: () => budgetExhausted(UPLOAD_MESSAGES.addressBudget, null) };
    }
  }

  /** Takes `bytes` from both budgets, or none of them and throws the 429 of the one that is short. */
  async charge(request: FastifyRequest, bucket: string, bytes: number): Promise<BudgetCharge> {
    const taken: [RateLimiterAbstract, string][] = [];
    const giveBack = async () => {
      await Promise.all(taken.map(([limiter, key]) => limiter.reward(key, bytes).catch(() => undefined)));
    };
    const parts: [RateLimiterAbstract, string, string][] = [
      [this.perAddress, bucket, UPLOAD_MESSAGES.addressBudget],
      [this.global, GLOBAL_KEY, UPLOAD_MESSAGES.globalBudget],
    ];
    for (const [limiter, key, message] of parts) {
      try {
        taken.push([limiter, key]);
        await limiter.consume(key, bytes);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) {
          // The points may or may not have been taken: a refund could give back what was never counted.
          taken.pop();
          request.log.warn({ err: rejection }, 'attachment budget unavailable; upload allowed');
          continue;
        }
        // A refused charge is counted by the store all the same: given back, so that a refusal costs the sender nothing.
        await giveBack();
        throw budgetExhausted(message, rejection);
      }
    }
    return { refund: giveBack };
  }
}

const GLOBAL_KEY = 'all';

function budgetExhausted(message: string, state: RateLimiterRes | null): AppError {
  return new AppError('rate_limited', message, {
    fields: { attachments: message },
    retryAfterSeconds: Math.max(1, Math.ceil((state?.msBeforeNext ?? 60_000) / 1000)),
  });
}

/**
 * Who counts as a signed-out sender for the daily budgets: a visitor, and also the shared demo
 * account (its password is published) and an account whose address is not confirmed (anyone can
 * open one in a moment). A verified account keeps the per-ticket limits only.
 */
export function countsAsVisitor(request: FastifyRequest): boolean {
  const user = request.auth?.user;
  return !user || user.isDemo || !user.verified;
}

/** The rationing of one server's ticket uploads: its places in flight and the shared daily budgets. */
export interface UploadGate {
  slots: UploadSlots;
  budget: VisitorBudget;
  limits: UploadLimits;
}

const gates = new WeakMap<AppContext, UploadGate>();

export function createUploadGate(context: AppContext, limits: UploadLimits = { ...UPLOAD_LIMITS }): UploadGate {
  const gate = {
    slots: new UploadSlots(limits),
    budget: new VisitorBudget(context.redis, context.env.GATEWAY_REDIS_PREFIX, limits),
    limits,
  };
  gates.set(context, gate);
  return gate;
}

/** The gate of an app's ticket route (tests look at its places and budgets). */
export function uploadGateOf(context: AppContext): UploadGate | undefined {
  return gates.get(context);
}

/**
 * One ticket request's share of the gate. `beforeFile` runs as the first file starts, before any
 * of it is read: it takes a place (or refuses with 429 / 503) and, for a signed-out sender, checks
 * what is left of the day's budgets (refusing with 429 when nothing is). `release` ends it all.
 */
export class TicketUpload {
  readonly visitor: boolean;
  /** Bytes this upload may bring before it is refused (the budgets' remainder for a signed-out sender). */
  allowance = Number.POSITIVE_INFINITY;
  /** The 429 for a file that takes this upload past `allowance`. */
  overAllowance: () => AppError = () => budgetExhausted(UPLOAD_MESSAGES.addressBudget, null);
  private readonly bucket: string;
  private releaseSlot: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timedOut = false;
  /** The file being read, stopped when the upload takes too long. */
  current: { destroy(error?: Error): void } | null = null;

  private readonly gate: UploadGate;
  private readonly request: FastifyRequest;

  constructor(gate: UploadGate, request: FastifyRequest) {
    this.gate = gate;
    this.request = request;
    this.visitor = countsAsVisitor(request);
    this.bucket = addressBucket(request.ip);
  }

  async beforeFile(): Promise<void> {
    if (this.timedOut) throw this.tooSlow();
    if (this.releaseSlot) return;
    const taken = this.gate.slots.take(this.bucket, this.visitor);
    if (taken === 'address') {
      throw new AppError('rate_limited', UPLOAD_MESSAGES.addressBusy, { retryAfterSeconds: this.gate.limits.busyRetrySeconds });
    }
    if (taken === 'server') {
      throw new UploadRefusal(
        503,
        'attachments_busy',
        UPLOAD_MESSAGES.busy(this.gate.limits.busyRetrySeconds),
        this.gate.limits.busyRetrySeconds,
      );
    }
    this.releaseSlot = taken;
    this.timer = setTimeout(() => this.stopSlowUpload(), this.gate.limits.readSeconds * 1000);
    this.timer.unref();
    if (this.visitor) {
      const left = await this.gate.budget.remaining(this.request, this.bucket);
      this.allowance = left.bytes;
      this.overAllowance = left.refusal;
    }
  }

  /**
   * The whole body is read: the deadline is over (the place is kept until the database write ends).
   * Should the deadline have passed after the last chunk, the place is already gone: the 408, not a ticket stored without one.
   */
  finishedReading(): void {
    if (this.timedOut) throw this.tooSlow();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
  }

  /** Charges a signed-out sender's budgets for the attachments about to be stored (nothing to charge otherwise). */
  async charge(bytes: number): Promise<BudgetCharge> {
    if (!this.visitor || bytes === 0) return { refund: async () => undefined };
    return this.gate.budget.charge(this.request, this.bucket, bytes);
  }

  /** Whether the upload was stopped for taking too long (what the read then failed with is this). */
  get stopped(): boolean {
    return this.timedOut;
  }

  tooSlow(): UploadRefusal {
    return new UploadRefusal(408, 'upload_timeout', UPLOAD_MESSAGES.tooSlow(this.gate.limits.readSeconds));
  }

  /** Gives the place back once the ticket is stored or refused (the database write is over either way). */
  release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.releaseSlot?.();
    this.releaseSlot = null;
  }

  /**
   * Past `readSeconds` still reading: the place goes to the next sender now. A file being read is
   * stopped (the sender gets the 408); between files the connection is closed, since its body
   * may never go on and what was read would stay in memory.
   */
  private stopSlowUpload(): void {
    this.timedOut = true;
    this.timer = null;
    this.releaseSlot?.();
    this.releaseSlot = null;
    if (this.current) this.current.destroy(this.tooSlow());
    else this.request.raw.destroy();
  }
}
