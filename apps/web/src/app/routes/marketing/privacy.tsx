import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Privacy Policy',
    'How Conductor collects, uses and protects personal data: accounts, hashed API keys, encrypted provider keys and usage metadata.',
    '/privacy',
  );

export default function Page() {
  return <PageFrame eyebrow="Legal" title="Privacy Policy" lead="What we store, why, and the choices you have." />;
}
