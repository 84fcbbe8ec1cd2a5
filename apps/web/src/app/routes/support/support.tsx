import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Support', 'Search the Conductor help centre, read the FAQ, check system status or open a support ticket.', '/support');

export default function Support() {
  return (
    <PageFrame eyebrow="Help Center" title="How can we help?" lead="Search the FAQ, check system status, or open a ticket with our team." />
  );
}
