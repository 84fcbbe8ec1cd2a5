import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Contact Support', 'Contact Conductor support: hours, response times and how to open a ticket.', '/support/contact');

export default function SupportContact() {
  return <PageFrame eyebrow="Support" title="Contact Support" lead="Mon-Fri 9AM-6PM EST. We reply to e-mail within 24 hours." />;
}
