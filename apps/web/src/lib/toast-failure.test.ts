import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { toastFailure } from './toast-failure';

const { error } = vi.hoisted(() => ({ error: vi.fn() }));
vi.mock('./toast', () => ({ toast: { error } }));

describe('toastFailure', () => {
  beforeEach(() => error.mockReset());

  it('says nothing the client already said (a server error, an ended session), and the rest once', () => {
    toastFailure(new ApiError(500, 'internal', 'Server error. Please try again later.', undefined, true), 'Could not save.');
    toastFailure(new ApiError(401, 'unauthorized', 'Sign in to continue.', undefined, true), 'Could not save.');
    expect(error).not.toHaveBeenCalled();
    toastFailure(new ApiError(409, 'conflict', 'That name is taken.'), 'Could not save.');
    toastFailure(new Error('Network error'), 'Could not save.');
    toastFailure('no reason', 'Could not save.');
    expect(error.mock.calls.map(([message]) => message)).toEqual(['That name is taken.', 'Network error', 'Could not save.']);
  });
});
