import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ByModelTable } from './by-model-table';

const row = (model: string, trendPercent: number | null) => ({
  model,
  provider: 'openai',
  requests: 12,
  tokens: 3_400,
  costMicros: 1_000,
  previousTokens: 10,
  trendPercent,
});

describe('usage by model', () => {
  it('shows the trend to one decimal, capped at >999% against a previous period with next to no usage', () => {
    render(<ByModelTable rows={[row('gpt-4o', 16.14), row('gpt-4o-mini', -26.7), row('o1', 72_676.4), row('o3', null)]} />);
    const table = screen.getByRole('table', { name: 'Usage by model' });
    const rowOf = (model: string) => within(table).getByText(model).closest('tr') as HTMLElement;
    // Each trend appears twice: its own column (wide screens) and under the tokens (phones).
    expect(within(rowOf('gpt-4o')).getAllByText(/16\.1%/)).toHaveLength(2);
    expect(within(rowOf('gpt-4o-mini')).getAllByText(/26\.7%/)).toHaveLength(2);
    expect(within(rowOf('o1')).getAllByText(/>999%/)).toHaveLength(2);
    expect(rowOf('o1').textContent).not.toContain('72676');
    expect(within(rowOf('o3')).getAllByText('New')).toHaveLength(2);
  });
});
