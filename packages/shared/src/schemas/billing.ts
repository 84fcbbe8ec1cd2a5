import { z } from 'zod';
import { PLAN_IDS, USER_PLANS } from '../constants/plans.ts';

export const BillingPeriod = z.enum(['monthly', 'yearly']);
export type BillingPeriod = z.infer<typeof BillingPeriod>;

const Cents = z.number().int();
const Count = z.number().int().nonnegative();

export const InvoiceLine = z.object({ description: z.string(), amountCents: Cents });

export const Invoice = z.object({
  id: z.string(),
  number: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  amountCents: Cents,
  status: z.enum(['paid', 'open', 'void', 'uncollectible']),
  lines: z.array(InvoiceLine),
  createdAt: z.string(),
});
export type Invoice = z.infer<typeof Invoice>;

export const InvoiceList = z.object({ invoices: z.array(Invoice) });
export type InvoiceList = z.infer<typeof InvoiceList>;
export const InvoiceIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid invoice id'),
});

/** `GET /api/v1/billing`: plan, period, this month's usage, overage and the estimated bill. */
export const BillingOverview = z.object({
  plan: z.enum(USER_PLANS),
  planName: z.string(),
  period: BillingPeriod,
  /** Price of one period of the current plan, in cents. */
  priceCents: Count,
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  /** The end of the current period. */
  nextBillingDate: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  /**
   * While a paid plan's free trial runs: when it ends (the current period's end, and the first
   * invoice's date). Null otherwise.
   */
  trialEndsAt: z.string().nullable(),
  /** Whether moving to a paid plan would start a free trial (one per account). */
  trialAvailable: z.boolean(),
  /** `tokensUsed` counts against the quota; `ownKeyTokens` were served on the account's own provider keys (no quota, no overage). */
  usage: z.object({ tokensUsed: Count, ownKeyTokens: Count, tokensLimit: Count.nullable(), monthStart: z.string() }),
  overage: z.object({
    tokens: Count,
    costCents: Count,
    /** Free plans are throttled instead of billed for overage. */
    applies: z.boolean(),
  }),
  /**
   * The next invoice if nothing changes: the renewal (unless cancelling) plus overage; in a free
   * trial, the first invoice at its end (the first period's price, prorated to a monthly plan's month).
   */
  estimatedBillCents: Count,
  /** No payment processor is reachable: always null ("no card on file"). */
  paymentMethod: z.null(),
});
export type BillingOverview = z.infer<typeof BillingOverview>;

export const ChangePlanInput = z
  .object({
    plan: z.enum(PLAN_IDS),
    period: BillingPeriod.default('monthly'),
    /**
     * The preview's `totalCents`, as shown to the user: the change goes ahead only if it still
     * costs exactly that (prorated as of now, with the overage owed until now), else 409
     * `quote_expired` and nothing changes. Without it, the change is made at whatever it costs now.
     */
    expectedTotalCents: z.number().int().optional(),
    /**
     * The preview's `overageCents`, sent with `expectedTotalCents`: the overage keeps being metered
     * while the user reads the preview, so the change then goes ahead when the prorated part is
     * exactly the one shown and the overage owed is at least the one shown (billed as metered).
     * Without it, the total must be exactly `expectedTotalCents`.
     */
    expectedOverageCents: z.number().int().min(0).optional(),
  })
  .strict()
  .refine((input) => input.expectedOverageCents === undefined || input.expectedTotalCents !== undefined, {
    message: 'expectedOverageCents is sent with expectedTotalCents',
    path: ['expectedOverageCents'],
  });
export type ChangePlanInput = z.input<typeof ChangePlanInput>;

/** What a plan change costs now: credit for the unused part of the old plan, charge for the new one. */
export const ProrationPreview = z.object({
  fromPlan: z.enum(USER_PLANS),
  fromPeriod: BillingPeriod,
  toPlan: z.enum(PLAN_IDS),
  toPeriod: BillingPeriod,
  creditCents: Count,
  chargeCents: Count,
  /** Overage owed so far on the paid plan being left (billed with the change). */
  overageCents: Count,
  /** charge + overage − credit: positive is due now, negative is credited. */
  totalCents: Cents,
  /** Whether any part is prorated (a credit for unused time, or a charge for part of a period), not billed whole. */
  prorated: z.boolean(),
  periodStart: z.string(),
  periodEnd: z.string(),
  lines: z.array(InvoiceLine),
  /**
   * The free trial this change starts or stays in (nothing is charged for the plan until it ends),
   * with the first invoice's price at its end; null when the change is billed at once.
   */
  trial: z.object({ endsAt: z.string(), firstInvoiceCents: Count }).nullable(),
});
export type ProrationPreview = z.infer<typeof ProrationPreview>;

export const ChangePlanResult = z.object({ billing: BillingOverview, invoice: Invoice.nullable() });
export type ChangePlanResult = z.infer<typeof ChangePlanResult>;

export const formatCents = (cents: number) =>
  `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
