import { act, screen, waitFor } from '@testing-library/react';
import { lazy } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Prerendered } from './prerendered';

const SERVER_HTML = '<main><div class="contents"><p>Prerendered text <a href="/pricing">Pricing</a></p></div></main>';

function setUp() {
  const load = vi.fn(async () => ({ default: () => <p>Loaded text</p> }));
  const Content = lazy(load);
  const onShow = vi.fn();
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <main>
          <Prerendered content={Content} onShow={onShow} />
        </main>
      ),
    },
    { path: '/pricing', element: <h1>Pricing page</h1> },
  ]);
  const container = document.createElement('div');
  document.body.append(container);
  return { load, onShow, router, container };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('Prerendered', () => {
  it('keeps the prerendered HTML when hydrating, without loading the component, and follows its links in the app', async () => {
    const { load, router, container } = setUp();
    container.innerHTML = SERVER_HTML;
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(container, <RouterProvider router={router} />, { onRecoverableError: recoverable });
    });
    expect(screen.getByText(/Prerendered text/)).toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
    expect(recoverable).not.toHaveBeenCalled();
    await act(async () => {
      screen.getByRole('link', { name: 'Pricing' }).click();
    });
    expect(router.state.location.pathname).toBe('/pricing');
  });

  it('loads and renders the component on a client-side render, and says when it is shown', async () => {
    const { load, onShow, router, container } = setUp();
    await act(async () => {
      createRoot(container).render(<RouterProvider router={router} />);
    });
    await waitFor(() => expect(screen.getByText('Loaded text')).toBeInTheDocument());
    expect(load).toHaveBeenCalledTimes(1);
    expect(onShow).toHaveBeenCalledTimes(1);
  });
});
