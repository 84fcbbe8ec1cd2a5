import { describe, expect, it } from 'vitest';
import { nextPage, signInDestination, withNext } from './next-path';

describe('signInDestination', () => {
  it('returns to the dashboard page the guard sent the visitor away from, query included', () => {
    expect(signInDestination('?next=%2Fdashboard%2Fbilling')).toBe('/dashboard/billing');
    expect(signInDestination('?next=/dashboard/usage%3Frange%3D30d')).toBe('/dashboard/usage?range=30d');
    expect(signInDestination('?next=/dashboard')).toBe('/dashboard');
  });

  it('goes to /dashboard without a next page or with one outside the dashboard', () => {
    for (const search of [
      '',
      '?next=',
      '?next=https://evil.example/dashboard',
      '?next=//evil.example/dashboard',
      '?next=/\\evil.example',
      '?next=/dashboard.evil.example',
      '?next=/dashboardx',
      '?next=/pricing',
      '?next=/dashboard/../login',
      '?next=/dashboard/keys%23x',
      '?next=javascript:alert(1)',
    ])
      expect(signInDestination(search), search).toBe('/dashboard');
  });
});

describe('withNext', () => {
  it('carries a dashboard page through sign-up and onboarding, and nothing else', () => {
    const billing = '/dashboard/billing?plan=pro&period=yearly';
    expect(withNext('/onboarding', billing)).toBe('/onboarding?next=%2Fdashboard%2Fbilling%3Fplan%3Dpro%26period%3Dyearly');
    expect(signInDestination(withNext('/onboarding', billing).slice('/onboarding'.length))).toBe(billing);
    expect(nextPage(withNext('/login', billing).slice('/login'.length))).toBe(billing);
    for (const next of [null, undefined, '', '/pricing', 'https://evil.example/dashboard', '/dashboard/settings#profile'])
      expect(withNext('/onboarding', next), String(next)).toBe('/onboarding');
  });
});
