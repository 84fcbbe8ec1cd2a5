import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DocsNav } from './docs-nav';
import { resolveSection } from './docs-registry';

function Layout() {
  return <DocsNav current={resolveSection(useParams().section)} />;
}

const renderAt = (path: string) =>
  render(
    <RouterProvider
      router={createMemoryRouter(
        [
          { path: '/docs', element: <Layout /> },
          { path: '/docs/:section', element: <Layout /> },
        ],
        { initialEntries: [path] },
      )}
    />,
  );

/** Closed, the groups are `hidden` below the `lg` breakpoint (Tailwind; the test DOM has no stylesheet). */
const isCollapsed = (panel: HTMLElement) => panel.classList.contains('hidden');

describe('DocsNav', () => {
  it('labels each group list with its name, without headings ahead of the page title', () => {
    renderAt('/docs/quick-start');
    expect(screen.queryAllByRole('heading')).toEqual([]);
    for (const group of ['Getting Started', 'API Reference', 'SDKs & Libraries', 'Guides']) {
      expect(screen.getByRole('list', { name: group })).toBeInTheDocument();
    }
    expect(screen.getByRole('list', { name: 'Getting Started' })).toContainElement(screen.getByRole('link', { name: 'Quick Start' }));
    expect(screen.getByRole('link', { name: 'Quick Start' })).toHaveAttribute('aria-current', 'page');
  });

  it('on a small screen sits behind a closed "Docs menu" button naming the current page, and closes after navigating', async () => {
    const events = userEvent.setup();
    renderAt('/docs/quick-start');
    const button = screen.getByRole('button', { name: /^Docs menu/ });
    expect(button).toHaveTextContent('Quick Start');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(button.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(panel).toContainElement(screen.getByRole('link', { name: 'Rate Limiting' }));
    expect(isCollapsed(panel)).toBe(true);

    await events.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(isCollapsed(panel)).toBe(false);

    await events.click(screen.getByRole('link', { name: 'Rate Limiting' }));
    expect(screen.getByRole('link', { name: 'Rate Limiting' })).toHaveAttribute('aria-current', 'page');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveTextContent('Rate Limiting');
    expect(isCollapsed(panel)).toBe(true);
  });

  it('names the API reference in the button on /docs/api', () => {
    renderAt('/docs/api');
    expect(screen.getByRole('button', { name: /^Docs menu/ })).toHaveTextContent('API Reference');
  });
});
