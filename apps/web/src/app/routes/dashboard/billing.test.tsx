import type { BillingOverview } from '@conductor/shared/schemas/billing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import BillingPage from './billing';

const { api, overview } = vi.hoisted(() => ({
  api: { get: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn() },
  overview: { current: null as unknown },
}));
vi.mock('~/lib/api-client', async (importOriginal) => ({ ...(await importOriginal<object>()), api }));
vi.mock('~/lib/auth', () => ({ useAuth: () => ({ user: { verified: true, isDemo: false } }), loadSession: vi.fn() }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const PAID = {
  period: 'monthly',
  currentPeriodStart: '2026-04-01T00:00:00.000Z',
  currentPeriodEnd: '2026-05-01T00:00:00.000Z',
  nextBillingDate: '2026-05-01T00:00:00.000Z',
  cancelAtPeriodEnd: false,
  trialEndsAt: null,
  trialAvailable: false,
  overage: { tokens: 0, costCents: 0, applies: true },
  paymentMethod: null,
};
const ENTERPRISE = {
  ...PAID,
  plan: 'enterprise',
  planName: 'Enterprise',
  priceCents: 19_900,
  usage: { tokensUsed: 5_000_000, ownKeyTokens: 0, tokensLimit: null, monthStart: '2026-04-01' },
  estimatedBillCents: 19_900,
} as BillingOverview;
const PRO = {
  ...PAID,
  plan: 'pro',
  planName: 'Pro',
  priceCents: 2900,
  usage: { tokensUsed: 5_000, ownKeyTokens: 0, tokensLimit: 1_000_000, monthStart: '2026-04-01' },
  estimatedBillCents: 2900,
} as BillingOverview;

function renderBilling(billing: BillingOverview) {
  overview.current = billing;
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <BillingPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('billing page: the overage note', () => {
  beforeEach(() => {
    api.get.mockReset().mockImplementation((path: string) => Promise.resolve(path === '/billing' ? overview.current : { invoices: [] }));
  });

  it('says nothing of overage on a plan without a quota (Enterprise)', async () => {
    renderBilling(ENTERPRISE);
    expect(await screen.findByTestId('current-plan')).toHaveTextContent('Enterprise');
    expect(screen.queryByTestId('overage-note')).toBeNull();
    expect(screen.queryByText(/Tokens over your quota/)).toBeNull();
  });

  it('prices overage on a plan with a quota (Pro)', async () => {
    renderBilling(PRO);
    expect(await screen.findByTestId('overage-note')).toHaveTextContent('Tokens over your quota cost $0.05 per 1K on Pro.');
  });
});
