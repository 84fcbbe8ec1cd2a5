import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyButton } from './copy-button';

const { toast } = vi.hoisted(() => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock('~/lib/toast', () => ({ toast }));

function setClipboard(writeText: (() => Promise<void>) | undefined) {
  Object.defineProperty(navigator, 'clipboard', { value: writeText ? { writeText } : undefined, configurable: true });
}

function Shown() {
  const ref = useRef<HTMLElement>(null);
  return (
    <div>
      <code ref={ref}>cc_test_sk_shown</code>
      <CopyButton value="cc_test_sk_shown" label="Copy API key" selectTarget={ref} />
    </div>
  );
}

describe('copy button', () => {
  afterEach(() => {
    for (const fn of Object.values(toast)) fn.mockReset();
    window.getSelection()?.removeAllRanges();
  });

  it('copies and confirms', async () => {
    // After user-event's setup, which puts its own clipboard in place.
    const events = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    setClipboard(writeText);
    const onCopied = vi.fn();
    render(<CopyButton value="hello" label="Copy greeting" onCopied={onCopied} />);
    await events.click(screen.getByRole('button', { name: 'Copy greeting' }));
    expect(writeText).toHaveBeenCalledWith('hello');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(onCopied).toHaveBeenCalledOnce();
  });

  it('when the clipboard is denied, selects the value and says to press the copy keys', async () => {
    const events = userEvent.setup();
    setClipboard(vi.fn().mockRejectedValue(new DOMException('denied', 'NotAllowedError')));
    render(<CopyButton value="cc_test_sk_secret" label="Copy API key" />);
    await events.click(screen.getByRole('button', { name: 'Copy API key' }));
    await waitFor(() => expect(toast.info).toHaveBeenCalled());
    expect(toast.info.mock.calls[0]?.[0]).toMatch(/(Ctrl|⌘)\+C/);
    const selected = document.activeElement as HTMLTextAreaElement;
    expect(selected.tagName).toBe('TEXTAREA');
    expect(selected.value.slice(selected.selectionStart, selected.selectionEnd)).toBe('cc_test_sk_secret');
    expect(screen.queryByRole('button', { name: 'Copied' })).toBeNull();
  });

  it('when there is no clipboard, selects the shown text it was given', async () => {
    const events = userEvent.setup();
    setClipboard(undefined);
    render(<Shown />);
    await events.click(screen.getByRole('button', { name: 'Copy API key' }));
    await waitFor(() => expect(toast.info).toHaveBeenCalled());
    expect(window.getSelection()?.toString()).toBe('cc_test_sk_shown');
  });
});
