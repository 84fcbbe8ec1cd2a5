import { Outlet, useParams } from 'react-router';
import { resolveSection } from '~/features/docs/docs-content';
import { DocsNav } from '~/features/docs/docs-nav';

export default function DocsLayout() {
  const params = useParams();
  const current = resolveSection(params.section);
  return (
    <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[15rem_1fr] lg:px-8">
      <aside className="lg:sticky lg:top-24 lg:self-start">
        <DocsNav current={current} />
      </aside>
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}
