import { inArray, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUserWithSession } from '../../../test/helpers.ts';
import { invoices, subscriptions } from '../../db/schema/index.ts';
import { readOutbox } from '../../lib/mailer.ts';
import { spendTrial, usageEvent } from '../portal/portal-testing.ts';
import { recordUsageEvents } from '../usage/usage.writer.ts';
import { billingSuite } from './billing-testing.ts';
import { FINAL_INVOICE_MAIL_KIND } from './final-invoice-mail.ts';

const lineOf = ({ description, amountCents }: { description: string; amountCents: number }) => ({ description, amountCents });

/** Deleting an account settles its billing first: the overage owed is invoiced, and its invoices are kept. */
describe('billing: a deleted account', () => {
  const { clock, app, db, post, sessionFor, invoicesOf } = billingSuite('2026-03-16T00:00:00.000Z');

  const onPro = async () => {
    const created = await createUserWithSession(app());
    await spendTrial(db(), created.user.id, clock.now());
    expect((await post('/api/v1/billing/change-plan', created.cookie, { plan: 'pro' })).statusCode).toBe(200);
    return created;
  };
  const deleteAccount = async (cookie: string) => {
    const response = await post('/api/v1/settings/delete-account', cookie, { confirmation: 'DELETE' });
    expect(response.statusCode, response.body).toBe(200);
  };
  const invoicesWithIds = (ids: string[]) => db().select().from(invoices).where(inArray(invoices.id, ids)).orderBy(invoices.createdAt);

  it('bills the overage owed so far on a final invoice, and keeps every invoice, open ones included, with no account', async () => {
    const { user } = await onPro();
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-18T10:00:00Z', { promptTokens: 1_200_000, completionTokens: 0 })]);
    clock.set('2026-03-20T00:00:00.000Z');
    const later = await sessionFor(user.id);
    const before = await invoicesOf(user.id);
    expect(before).toHaveLength(1);
    expect(before[0]?.status).toBe('open');

    await deleteAccount(later);

    const kept = await db().select().from(invoices).where(isNull(invoices.userId));
    const ids = kept.map((row) => row.id);
    expect(ids).toContain(before[0]?.id);
    const after = await invoicesWithIds(ids);
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ id: before[0]?.id, userId: null, status: 'open', amountCents: before[0]?.amountCents });
    expect(after[1]).toMatchObject({
      userId: null,
      status: 'open',
      amountCents: 1000,
      periodStart: new Date('2026-03-01T00:00:00.000Z'),
      periodEnd: new Date('2026-03-20T00:00:00.000Z'),
      createdAt: new Date('2026-03-20T00:00:00.000Z'),
    });
    expect(after[1]?.lines.map(lineOf)).toEqual([{ description: 'Overage: 200,000 tokens over quota in March 2026', amountCents: 1000 }]);
    expect(
      await db()
        .select()
        .from(subscriptions)
        .where(inArray(subscriptions.userId, [user.id])),
    ).toEqual([]);
  });

  it("sends the final invoice to the account's address, since its owner can no longer see it in Billing", async () => {
    const { user } = await onPro();
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-18T10:00:00Z', { promptTokens: 1_200_000, completionTokens: 0 })]);
    clock.set('2026-03-20T00:00:00.000Z');
    const [upgrade] = await invoicesOf(user.id);

    await deleteAccount(await sessionFor(user.id));

    const kept = await db().select().from(invoices).where(isNull(invoices.userId));
    const final = (await invoicesWithIds(kept.map((row) => row.id))).find((row) => row.id !== upgrade?.id);
    expect(final?.amountCents).toBe(1000);
    const mails = await readOutbox(app().context, user.email, FINAL_INVOICE_MAIL_KIND);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.subject).toBe(`Your final Conductor invoice ${final?.number}: $10.00 due`);
    expect(mail?.text).toContain(`Invoice: ${final?.number}`);
    expect(mail?.text).toContain('Service period: Mar 1, 2026 – Mar 19, 2026');
    expect(mail?.text).toContain('Overage: 200,000 tokens over quota in March 2026: $10.00');
    expect(mail?.text).toContain('Total due: $10.00');
    // Only the final invoice is mailed: the invoice of the upgrade is not sent again.
    expect(mail?.text).not.toContain(String(upgrade?.number));
  });

  it('a period that ended but was not yet renewed is closed, not renewed: its overage is billed, no new period', async () => {
    const { user } = await onPro();
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-25T10:00:00Z', { promptTokens: 1_100_000, completionTokens: 0 })]);
    const [upgrade] = await invoicesOf(user.id);
    clock.set('2026-04-01T00:00:10.000Z');
    await deleteAccount(await sessionFor(user.id));
    const kept = await db().select().from(invoices).where(isNull(invoices.userId));
    const after = await invoicesWithIds(kept.map((row) => row.id));
    expect(after.map((row) => row.id)).toContain(upgrade?.id);
    const final = after.filter((row) => row.id !== upgrade?.id);
    expect(final.map((row) => row.lines.map(lineOf))).toEqual([
      [{ description: 'Overage: 100,000 tokens over quota in March 2026', amountCents: 500 }],
    ]);
  });

  it('a free account, or a paid one within its quota, is deleted with no invoice', async () => {
    const free = await createUserWithSession(app());
    const pro = await onPro();
    const [upgrade] = await invoicesOf(pro.user.id);
    const countBefore = (await db().select().from(invoices)).length;
    await deleteAccount(free.cookie);
    await deleteAccount(pro.cookie);
    const all = await db().select().from(invoices);
    expect(all).toHaveLength(countBefore);
    expect(all.find((row) => row.id === upgrade?.id)).toMatchObject({ userId: null });
    for (const { user } of [free, pro]) expect(await readOutbox(app().context, user.email, FINAL_INVOICE_MAIL_KIND)).toEqual([]);
  });
});
