import { redirect } from 'react-router';
import type { Route } from './+types/catch-all';

/**
 * Any other path redirects to `/` (spec route table); a deeper path under the docs goes to the
 * docs' introduction instead, as an unknown docs section shows it (spec: /docs and /docs/*).
 */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return redirect(new URL(request.url).pathname.startsWith('/docs/') ? '/docs' : '/');
}

export default function CatchAll() {
  return null;
}
