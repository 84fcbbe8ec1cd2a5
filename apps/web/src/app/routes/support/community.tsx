import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Community',
    'Join the Conductor developer community: discussions, examples and help from other builders.',
    '/support/community',
  );

export default function Community() {
  return (
    <PageFrame
      eyebrow="Support"
      title="Community"
      lead="Ask questions, share routing recipes and meet other teams building on Conductor."
    />
  );
}
