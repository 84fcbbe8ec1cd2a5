import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Tab, TabList, TabPanel, Tabs } from './tabs';

function Example({ onValueChange, keepMounted }: { onValueChange?: (value: string) => void; keepMounted?: boolean }) {
  return (
    <Tabs defaultValue="one" onValueChange={onValueChange}>
      <TabList aria-label="Numbers">
        <Tab value="one">One</Tab>
        <Tab value="two">Two</Tab>
        <Tab value="three">Three</Tab>
      </TabList>
      {['one', 'two', 'three'].map((value) => (
        <TabPanel key={value} value={value} keepMounted={keepMounted}>
          Panel {value}
        </TabPanel>
      ))}
    </Tabs>
  );
}

describe('Tabs', () => {
  it('ties tabs and panels together and shows the selected panel only', () => {
    render(<Example />);
    const one = screen.getByRole('tab', { name: 'One' });
    expect(one).toHaveAttribute('aria-selected', 'true');
    expect(one).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('tab', { name: 'Two' })).toHaveAttribute('tabindex', '-1');
    const panel = screen.getByRole('tabpanel');
    expect(panel).toHaveTextContent('Panel one');
    expect(panel).toHaveAttribute('aria-labelledby', one.id);
    expect(one).toHaveAttribute('aria-controls', panel.id);
    expect(screen.queryByText('Panel two')).not.toBeInTheDocument();
  });

  it('selects on click and with the arrow, Home and End keys (wrapping), moving focus', () => {
    const onValueChange = vi.fn();
    render(<Example onValueChange={onValueChange} />);
    fireEvent.click(screen.getByRole('tab', { name: 'Two' }));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel two');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Two' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Three' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Three' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Three' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'One' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'One' }), { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'Three' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Three' }), { key: 'Home' });
    expect(screen.getByRole('tab', { name: 'One' })).toHaveFocus();
    fireEvent.keyDown(screen.getByRole('tab', { name: 'One' }), { key: 'End' });
    expect(screen.getByRole('tab', { name: 'Three' })).toHaveFocus();
    expect(onValueChange.mock.calls.map(([value]) => value)).toEqual(['two', 'three', 'one', 'three', 'one', 'three']);
  });

  it('keeps every panel in the page, the others hidden, with keepMounted', () => {
    render(<Example keepMounted />);
    expect(screen.getByText('Panel one')).toBeVisible();
    expect(screen.getByText('Panel two')).not.toBeVisible();
    expect(screen.getByText('Panel two')).toHaveAttribute('hidden');
  });
});
