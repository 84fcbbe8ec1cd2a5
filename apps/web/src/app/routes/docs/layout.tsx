import { Outlet, useParams } from 'react-router';
import { DocsSearchBox } from '~/features/docs/components/docs-search-box';
import { resolveSection } from '~/features/docs/docs-registry';
import { DocsNav } from '~/features/docs/docs-nav';
import '~/features/docs/docs.css';

export default function DocsLayout() {
  const params = useParams();
  const current = resolveSection(params.section);
  return (
    <div className="mx-auto grid max-w-[90rem] gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-10 lg:px-8">
      <aside
        aria-label="Docs navigation"
        className="space-y-4 lg:space-y-6 lg:sticky lg:top-20 lg:max-h-[calc(100dvh-6rem)] lg:self-start lg:overflow-y-auto lg:pb-6"
      >
        <DocsSearchBox />
        <DocsNav current={current} />
      </aside>
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}
