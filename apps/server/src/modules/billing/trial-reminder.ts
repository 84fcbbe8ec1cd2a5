import { limitsForPlan, planById } from '@conductor/shared';
import { type BillingPeriod, formatCents } from '@conductor/shared/schemas/billing';
import { and, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema/index.ts';
import type { MailMessage, Mailer } from '../../lib/mailer.ts';
import { afterTrial, billingDay, billingMonth } from './billing-math.ts';

export const TRIAL_ENDING_MAIL_KIND = 'trial_ending';
/** How long before a free trial ends its account is told (once), so that a cancellation can come first. */
export const TRIAL_REMINDER_MS = 3 * 86_400_000;

/** `Dec 13, 2026 at 02:40 UTC`. */
const utcMoment = (ms: number) => `${billingDay(ms)} at ${new Date(ms).toISOString().slice(11, 16)} UTC`;

/** The notice that a free trial is about to end: when, what the first invoice bills, and how to stop it. */
export function trialEndingMail(input: {
  name: string;
  email: string;
  plan: 'pro' | 'enterprise';
  period: BillingPeriod;
  trialEndsAt: number;
  origin: string;
}): MailMessage {
  const plan = planById(input.plan);
  const first = afterTrial(input.plan, input.period, input.trialEndsAt);
  const dollars = (amount: number) => `$${amount.toLocaleString('en-US')}`;
  const price = input.period === 'monthly' ? `${dollars(plan.price.monthly)}/month` : `${dollars(plan.price.yearly)}/year`;
  const covers = input.period === 'monthly' ? `the rest of ${billingMonth(input.trialEndsAt)}` : 'its first year';
  const overage = limitsForPlan(input.plan).tokensPerMonth === null ? '' : ', with any tokens over the quota so far';
  return {
    to: input.email,
    subject: `Your Conductor ${plan.name} trial ends on ${billingDay(input.trialEndsAt)}`,
    kind: TRIAL_ENDING_MAIL_KIND,
    text: [
      `Hi ${input.name},`,
      '',
      `Your free trial of the ${plan.name} plan ends on ${utcMoment(input.trialEndsAt)}. From then ${plan.name} is ${price}: the first invoice, on that day, bills ${formatCents(first.chargeCents)} for ${covers}${overage}.`,
      '',
      `To keep ${plan.name}, there is nothing to do. To end the trial without being billed for the plan, cancel your subscription in Billing before then:`,
      '',
      `${input.origin}/dashboard/billing`,
      '',
      'The Conductor team',
    ].join('\n'),
  };
}

/**
 * Tells every account whose free trial ends within TRIAL_REMINDER_MS (and is not cancelled) that
 * it is ending, once: each is claimed by setting `trial_reminded_at` in one statement, so two
 * instances sweeping at once do not both mail it (a change of plan within the trial clears it, to
 * be told again of what that plan will bill). A mail that cannot be stored or sent is logged by the
 * mailer, not tried again here; an instance that stops between the claim and the mail loses it.
 * Returns how many were told.
 */
export async function remindTrialsEnding(db: Database, mailer: Mailer, now: number, origin: string): Promise<number> {
  const claimed = await db
    .update(subscriptions)
    .set({ trialRemindedAt: new Date(now) })
    .where(
      and(
        isNull(subscriptions.trialRemindedAt),
        gt(subscriptions.trialEndsAt, new Date(now)),
        lte(subscriptions.trialEndsAt, new Date(now + TRIAL_REMINDER_MS)),
        eq(subscriptions.cancelAtPeriodEnd, false),
        inArray(subscriptions.plan, ['pro', 'enterprise']),
      ),
    )
    .returning({
      userId: subscriptions.userId,
      plan: subscriptions.plan,
      period: subscriptions.period,
      trialEndsAt: subscriptions.trialEndsAt,
    });
  if (claimed.length === 0) return 0;
  const people = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(
      inArray(
        users.id,
        claimed.map((row) => row.userId),
      ),
    );
  const byId = new Map(people.map((person) => [person.id, person]));
  for (const row of claimed) {
    const person = byId.get(row.userId);
    const { plan } = row;
    if (!person || !row.trialEndsAt || (plan !== 'pro' && plan !== 'enterprise')) continue;
    await mailer.notify(
      trialEndingMail({
        name: person.name,
        email: person.email,
        plan,
        period: row.period,
        trialEndsAt: row.trialEndsAt.getTime(),
        origin,
      }),
    );
  }
  return claimed.length;
}
