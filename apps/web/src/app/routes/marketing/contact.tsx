import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Contact Us', 'Talk to the Conductor team about Enterprise plans, partnerships or anything else.', '/contact');

export default function Page() {
  return (
    <PageFrame
      eyebrow="Company"
      title="Contact Us"
      lead="Questions about Enterprise, partnerships or anything else? We reply within one business day."
    />
  );
}
