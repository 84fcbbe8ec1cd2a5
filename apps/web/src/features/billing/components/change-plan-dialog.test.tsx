import type { BillingOverview, ProrationPreview } from '@conductor/shared/schemas/billing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { chosenPlan, planChangePath, requestedChange } from '../lib/plan-request';
import { ChangePlanDialog } from './change-plan-dialog';

const { previewPlanChange } = vi.hoisted(() => ({ previewPlanChange: vi.fn() }));
vi.mock('../api/billing', () => ({
  previewPlanChange,
  useChangePlan: () => ({ mutateAsync: vi.fn(), isPending: false, reset: vi.fn() }),
}));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const FREE = {
  plan: 'free',
  planName: 'Free',
  period: 'monthly',
  priceCents: 0,
  currentPeriodStart: '2026-11-01T00:00:00.000Z',
  currentPeriodEnd: '2026-12-01T00:00:00.000Z',
  nextBillingDate: '2026-12-01T00:00:00.000Z',
  cancelAtPeriodEnd: false,
  trialEndsAt: null,
  trialAvailable: true,
  usage: { tokensUsed: 0, ownKeyTokens: 0, tokensLimit: 10_000, monthStart: '2026-11-01T00:00:00.000Z' },
  overage: { tokens: 0, costCents: 0, applies: false },
  estimatedBillCents: 0,
} as unknown as BillingOverview;

const PRO_TRIAL: ProrationPreview = {
  fromPlan: 'free',
  fromPeriod: 'monthly',
  toPlan: 'pro',
  toPeriod: 'yearly',
  creditCents: 0,
  chargeCents: 0,
  overageCents: 0,
  totalCents: 0,
  prorated: false,
  periodStart: '2026-11-29T08:00:00.000Z',
  periodEnd: '2026-12-13T08:00:00.000Z',
  lines: [{ description: 'Pro plan (yearly), free trial, Nov 29, 2026 to Dec 13, 2026', amountCents: 0 }],
  trial: { endsAt: '2026-12-13T08:00:00.000Z', firstInvoiceCents: 29_900 },
};

function Address() {
  const location = useLocation();
  return <output data-testid="address">{`${location.pathname}${location.search}`}</output>;
}

function renderAt(entry: string, billing = FREE) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[entry]}>
        <ChangePlanDialog billing={billing} />
        <Address />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('requestedChange', () => {
  it('reads a plan and period from the address, the current period when none is given', () => {
    expect(requestedChange(new URLSearchParams('plan=pro&period=yearly'), 'monthly')).toEqual({ plan: 'pro', period: 'yearly' });
    expect(requestedChange(new URLSearchParams('plan=enterprise'), 'yearly')).toEqual({ plan: 'enterprise', period: 'yearly' });
    expect(requestedChange(new URLSearchParams('plan=pro&period=weekly'), 'monthly')).toEqual({ plan: 'pro', period: 'monthly' });
    for (const query of ['', 'plan=', 'plan=byo-keys', 'plan=platinum', 'period=yearly', 'plan=PRO'])
      expect(requestedChange(new URLSearchParams(query), 'monthly'), query).toBeNull();
  });
});

describe('chosenPlan', () => {
  it('reads the paid plan a next page asks Billing for, as the pricing page writes it', () => {
    expect(chosenPlan(planChangePath('pro', 'yearly'))).toEqual({ plan: 'pro', period: 'yearly' });
    expect(chosenPlan('/dashboard/billing?plan=enterprise')).toEqual({ plan: 'enterprise', period: 'monthly' });
    for (const next of [
      null,
      '/dashboard/billing',
      planChangePath('free', 'monthly'),
      '/dashboard/keys?plan=pro',
      '/dashboard/billing?plan=gold',
    ])
      expect(chosenPlan(next), String(next)).toBeNull();
  });
});

describe('change plan dialog opened from the address', () => {
  beforeEach(() => {
    previewPlanChange.mockReset().mockResolvedValue(PRO_TRIAL);
  });

  it('opens with the plan and period chosen, shows what it costs, and takes the request out of the address', async () => {
    renderAt('/dashboard/billing?plan=pro&period=yearly');
    const dialog = await screen.findByRole('dialog', { name: 'Change plan' });
    expect(screen.getByRole('radio', { name: /Pro/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'yearly' })).toHaveAttribute('aria-checked', 'true');
    await waitFor(() => expect(previewPlanChange).toHaveBeenCalledWith({ plan: 'pro', period: 'yearly' }, expect.anything()));
    expect(await screen.findByTestId('trial-terms')).toHaveTextContent('Free trial until Dec 13, 2026');
    expect(dialog).toContainElement(screen.getByRole('button', { name: 'Confirm change' }));
    expect(screen.getByTestId('address')).toHaveTextContent(/^\/dashboard\/billing$/);
  });

  it('opens with nothing to review when the plan asked for is the current one', async () => {
    renderAt('/dashboard/billing?plan=free', FREE);
    await screen.findByRole('dialog', { name: 'Change plan' });
    expect(screen.getByRole('radio', { name: /Free/ })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Review change' })).toBeDisabled();
    expect(previewPlanChange).not.toHaveBeenCalled();
  });

  it('stays closed for an address that asks for no plan it knows, which it then leaves', async () => {
    renderAt('/dashboard/billing?plan=platinum&tab=invoices');
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/dashboard\/billing\?tab=invoices$/));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(previewPlanChange).not.toHaveBeenCalled();
  });
});

describe('change plan dialog, closed with Cancel', () => {
  beforeEach(() => {
    previewPlanChange.mockReset().mockResolvedValue(PRO_TRIAL);
  });

  it('forgets the quote: reopened, it starts from the choice again, as after Escape', async () => {
    renderAt('/dashboard/billing?plan=pro&period=yearly');
    await screen.findByTestId('trial-terms');
    screen.getByRole('button', { name: 'Cancel' }).click();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    screen.getByRole('button', { name: 'Change plan' }).click();
    await screen.findByRole('dialog', { name: 'Change plan' });
    expect(screen.queryByTestId('trial-terms')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Confirm change' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Review change' })).toBeInTheDocument();
  });
});

describe('change plan dialog: what the preview tells of overage and a pending cancellation', () => {
  const PRO_CANCELLING = {
    ...FREE,
    plan: 'pro',
    planName: 'Pro',
    priceCents: 2900,
    cancelAtPeriodEnd: true,
    trialAvailable: false,
    overage: { tokens: 100_000, costCents: 500, applies: true },
  } as BillingOverview;
  const TO_ENTERPRISE: ProrationPreview = {
    fromPlan: 'pro',
    fromPeriod: 'monthly',
    toPlan: 'enterprise',
    toPeriod: 'monthly',
    creditCents: 1000,
    chargeCents: 7000,
    overageCents: 500,
    totalCents: 6500,
    prorated: true,
    periodStart: '2026-11-01T00:00:00.000Z',
    periodEnd: '2026-12-01T00:00:00.000Z',
    lines: [
      { description: 'Enterprise plan (monthly), Nov 20, 2026 to Nov 30, 2026, prorated', amountCents: 7000 },
      { description: 'Unused time on Pro plan (monthly)', amountCents: -1000 },
      { description: 'Overage: 100,000 tokens over quota in November 2026', amountCents: 500 },
    ],
    trial: null,
  };

  it('says the overage is billed as metered, and that the subscription still cancels at the new period’s end', async () => {
    previewPlanChange.mockReset().mockResolvedValue(TO_ENTERPRISE);
    renderAt('/dashboard/billing?plan=enterprise', PRO_CANCELLING);
    expect(await screen.findByTestId('overage-terms')).toHaveTextContent('Overage is billed as metered when you confirm');
    expect(screen.getByTestId('cancellation-kept')).toHaveTextContent(
      'Your subscription is still set to cancel: Enterprise ends Nov 30, 2026 and moves to the Free plan, unless you resume it.',
    );
  });

  it('says neither when no overage is owed and nothing is set to cancel', async () => {
    previewPlanChange
      .mockReset()
      .mockResolvedValue({ ...TO_ENTERPRISE, overageCents: 0, totalCents: 6000, lines: TO_ENTERPRISE.lines.slice(0, 2) });
    renderAt('/dashboard/billing?plan=enterprise', { ...PRO_CANCELLING, cancelAtPeriodEnd: false });
    await screen.findByTestId('proration-preview');
    expect(screen.queryByTestId('overage-terms')).toBeNull();
    expect(screen.queryByTestId('cancellation-kept')).toBeNull();
  });
});
