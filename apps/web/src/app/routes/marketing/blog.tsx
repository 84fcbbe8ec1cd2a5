import { PageFrame } from '~/components/layouts/page-frame';
import { Prose } from '~/features/marketing/components/prose';
import { BLOG_POSTS } from '~/features/marketing/content/blog';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Blog', 'Engineering notes, product updates and guides from the Conductor team.', '/blog');

const formatDate = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export default function Page() {
  return (
    <PageFrame eyebrow="Company" title="Blog" lead="Engineering notes and product updates from the Conductor team.">
      <nav aria-label="Posts">
        <ul className="grid gap-4 md:grid-cols-3">
          {BLOG_POSTS.map((post) => (
            <li key={post.slug} className="rounded-xl border border-border bg-card p-5">
              <p className="text-xs text-muted-foreground">
                <time dateTime={post.date}>{formatDate(post.date)}</time>
              </p>
              <a href={`#${post.slug}`} className="mt-2 block font-semibold hover:text-primary">
                {post.title}
              </a>
              <p className="mt-2 text-sm text-muted-foreground">{post.summary}</p>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-16 space-y-16">
        {BLOG_POSTS.map((post) => (
          <article key={post.slug} id={post.slug} aria-labelledby={`${post.slug}-title`} className="scroll-mt-24">
            <header>
              <p className="text-sm text-muted-foreground">
                <time dateTime={post.date}>{formatDate(post.date)}</time> · {post.author}, {post.role}
              </p>
              <h2 id={`${post.slug}-title`} className="mt-2 text-3xl font-semibold tracking-tight text-balance">
                {post.title}
              </h2>
            </header>
            <Prose className="mt-2">
              {post.paragraphs.map((paragraph) => (
                <p key={paragraph.slice(0, 40)}>{paragraph}</p>
              ))}
            </Prose>
          </article>
        ))}
      </div>
    </PageFrame>
  );
}
