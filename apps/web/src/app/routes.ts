import { type RouteConfig, index, layout, prefix, route } from '@react-router/dev/routes';

export default [
  index('routes/marketing/landing.tsx'),
  layout('routes/marketing/layout.tsx', [
    route('home', 'routes/marketing/home.tsx'),
    route('pricing', 'routes/marketing/pricing.tsx'),
    route('status', 'routes/marketing/status.tsx'),
    route('about', 'routes/marketing/about.tsx'),
    route('blog', 'routes/marketing/blog.tsx'),
    route('careers', 'routes/marketing/careers.tsx'),
    route('press', 'routes/marketing/press.tsx'),
    route('contact', 'routes/marketing/contact.tsx'),
    route('privacy', 'routes/marketing/privacy.tsx'),
    route('terms', 'routes/marketing/terms.tsx'),
    route('cookies', 'routes/marketing/cookies.tsx'),
    route('gdpr', 'routes/marketing/gdpr.tsx'),
    route('docs', 'routes/docs/layout.tsx', [index('routes/docs/introduction.tsx'), route(':section', 'routes/docs/section.tsx')]),
    ...prefix('support', [
      index('routes/support/support.tsx'),
      route('community', 'routes/support/community.tsx'),
      route('contact', 'routes/support/contact.tsx'),
    ]),
  ]),
  layout('routes/auth/layout.tsx', [
    route('login', 'routes/auth/login.tsx'),
    route('register', 'routes/auth/register.tsx'),
    route('forgot-password', 'routes/auth/forgot-password.tsx'),
    route('reset-password', 'routes/auth/reset-password.tsx'),
    route('verify-email', 'routes/auth/verify-email.tsx'),
    route('auth/callback', 'routes/auth/callback.tsx'),
  ]),
  route('portal', 'routes/portal.tsx'),
  route('onboarding', 'routes/onboarding/onboarding.tsx'),
  route('dashboard', 'routes/dashboard/layout.tsx', [
    index('routes/dashboard/overview.tsx'),
    route('usage', 'routes/dashboard/usage.tsx'),
    route('keys', 'routes/dashboard/keys.tsx'),
    route('billing', 'routes/dashboard/billing.tsx'),
    route('settings', 'routes/dashboard/settings.tsx'),
  ]),
  route('*', 'routes/catch-all.tsx'),
] satisfies RouteConfig;
