import { describe, expect, it } from 'vitest';
import { routedPath } from './request-path.ts';

describe('routedPath', () => {
  it('is the raw path when nothing is escaped, without the query', () => {
    expect(routedPath('/api/v1/keys?x=%61')).toBe('/api/v1/keys');
    expect(routedPath('/')).toBe('/');
  });

  it('decodes escapes as the router does', () => {
    expect(routedPath('/%61pi/v1/auth/logout')).toBe('/api/v1/auth/logout');
    expect(routedPath('/%76%31/chat/completions?stream=1')).toBe('/v1/chat/completions');
  });

  it('is undefined for a malformed escape', () => {
    expect(routedPath('/api/%E0%A4%A')).toBeUndefined();
  });
});
