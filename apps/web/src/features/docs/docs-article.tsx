import { docsPage } from './docs-content';

export function DocsArticle({ slug }: { slug: string }) {
  const page = docsPage(slug);
  return (
    <article className="max-w-[70ch]">
      <h1 className="text-3xl font-semibold tracking-tight">{page.title}</h1>
      <div className="mt-6 space-y-4 leading-7 text-foreground/90">{page.body}</div>
    </article>
  );
}
