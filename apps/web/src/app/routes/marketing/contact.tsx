import { lazy } from 'react';
import { PageFrame } from '~/components/layouts/page-frame';
import { Prerendered } from '~/components/ui/prerendered';
import { ContactForm } from '~/features/marketing/components/contact-form';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Contact Us', 'Talk to the Conductor team about Enterprise plans, partnerships, press or anything else.', '/contact');

/** Static: the prerendered page keeps its HTML and never downloads it. */
const ContactChannels = lazy(() => import('~/features/marketing/components/contact-channels'));

export default function Page() {
  return (
    <PageFrame
      wide
      eyebrow="Company"
      title="Contact Us"
      lead="Questions about Enterprise, partnerships or anything else? Send us a message and we reply within one business day."
    >
      <div className="grid gap-10 lg:grid-cols-[2fr_1fr]">
        <ContactForm />
        <aside aria-label="Other ways to reach us">
          <Prerendered content={ContactChannels} />
        </aside>
      </div>
    </PageFrame>
  );
}
