import { CommunityPage } from '~/features/support/components/community-page';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Community', 'Routing recipes, patterns and help from teams building on Conductor, and how to take part.', '/support/community');

export default function Community() {
  return <CommunityPage />;
}
