import { render, screen } from '@testing-library/react';
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
});
