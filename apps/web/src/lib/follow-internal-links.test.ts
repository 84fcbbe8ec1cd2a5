import type { MouseEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { followInternalLinks } from './follow-internal-links';

function click(href: string, init: Partial<MouseEvent<HTMLElement>> = {}) {
  const anchor = document.createElement('a');
  anchor.setAttribute('href', href);
  const navigate = vi.fn();
  const event = {
    defaultPrevented: false,
    button: 0,
    target: anchor,
    preventDefault: vi.fn(),
    ...init,
  } as unknown as MouseEvent<HTMLElement>;
  followInternalLinks(navigate)(event);
  return { navigate, prevented: (event.preventDefault as ReturnType<typeof vi.fn>).mock.calls.length > 0 };
}

describe('followInternalLinks', () => {
  it('navigates in the app to the site’s own pages', () => {
    const { navigate, prevented } = click('/docs/error-handling#retrying-well');
    expect(navigate).toHaveBeenCalledWith('/docs/error-handling#retrying-well');
    expect(prevented).toBe(true);
  });

  it('leaves other sites, modified clicks and what the server answers itself to the browser', () => {
    for (const href of ['https://example.com/', '//example.com/', '/v1/openapi.json', '/api/v1/support/tickets', '/oidc/authorize'])
      expect(click(href).navigate, href).not.toHaveBeenCalled();
    expect(click('/pricing', { metaKey: true }).navigate).not.toHaveBeenCalled();
    expect(click('/v1beta').navigate).toHaveBeenCalledWith('/v1beta');
  });
});
