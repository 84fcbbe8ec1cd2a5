import { HomePage } from '~/features/marketing/components/home-page';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Home',
    'Route every LLM request through one OpenAI-compatible API with failover, load balancing, real-time analytics and up to 40% lower cost.',
    '/home',
  );

export default function Home() {
  return <HomePage />;
}
