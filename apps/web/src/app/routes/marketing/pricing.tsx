import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Pricing',
    'Simple, transparent pricing for Conductor: Free, Pro and Enterprise plans with monthly token quotas and per-minute rate limits.',
    '/pricing',
  );

export default function Page() {
  return (
    <PageFrame eyebrow="Pricing" title="Pricing" lead="Start free, upgrade when you ship. Every paid plan includes a 14-day free trial." />
  );
}
