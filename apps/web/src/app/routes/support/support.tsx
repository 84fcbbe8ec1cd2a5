import { SupportCentre } from '~/features/support/components/support-centre';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Support', 'Search the Conductor help centre, read the FAQ, check system status or open a support ticket.', '/support');

export default function Support() {
  return <SupportCentre />;
}
