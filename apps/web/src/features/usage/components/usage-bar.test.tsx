import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UsageBar, usageTone } from './usage-bar';

describe('usage bar', () => {
  it('is green up to 70%, yellow above 70% and red above 90%', () => {
    expect(usageTone(0)).toBe('success');
    expect(usageTone(70)).toBe('success');
    expect(usageTone(70.01)).toBe('warning');
    expect(usageTone(90)).toBe('warning');
    expect(usageTone(90.5)).toBe('danger');
    expect(usageTone(250)).toBe('danger');
  });

  it('caps the width at 100% and defaults the limit to 1,000,000', () => {
    const { rerender } = render(<UsageBar used={30_000} limit={10_000} />);
    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar).toHaveAttribute('data-tone', 'danger');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('100%');
    rerender(<UsageBar used={750_000} limit={null} />);
    expect(screen.getByText('750,000 / 1,000,000 tokens (75.0%)')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('data-tone', 'warning');
  });

  it('fills with quota tokens only, naming own-key tokens apart; with no quota it counts them all', () => {
    const { rerender } = render(<UsageBar used={5_000} ownKeyTokens={40_000} limit={10_000} />);
    expect(screen.getByText('5,000 / 10,000 tokens (50.0%)')).toBeInTheDocument();
    expect(screen.getByText(/Plus 40,000 tokens on your own provider keys, outside the quota/)).toBeInTheDocument();
    rerender(<UsageBar used={0} ownKeyTokens={40_000} limit={null} />);
    expect(screen.getByText('40,000 / 1,000,000 tokens (4.0%)')).toBeInTheDocument();
    expect(screen.queryByText(/on your own provider keys/)).not.toBeInTheDocument();
  });

  it('names test-key tokens under the bar without counting them', () => {
    const { rerender } = render(<UsageBar used={0} testTokens={1_234} limit={10_000} />);
    expect(screen.getByText('0 / 10,000 tokens (0.0%)')).toBeInTheDocument();
    expect(screen.getByText(/1,234 tokens on test keys this month, not counted/)).toBeInTheDocument();
    rerender(<UsageBar used={0} limit={10_000} />);
    expect(screen.queryByText(/on test keys/)).not.toBeInTheDocument();
  });
});
