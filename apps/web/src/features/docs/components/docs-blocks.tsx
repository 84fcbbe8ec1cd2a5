import { useNavigate } from 'react-router';
import { KEEP_MARKUP } from '~/components/ui/prerendered';
import { followInternalLinks } from '~/lib/follow-internal-links';
import type { DocsRenderBlock } from '../docs-types';
import { CodeGroup } from './code-group';

/**
 * The compiled Markdown of a section. Its HTML is our own build output; links to other
 * pages of the site are turned into client-side navigations. A block without `html` keeps
 * the prerendered markup (hydration), so the page's HTML is not downloaded twice.
 */
export function DocsBlocks({ blocks }: { blocks: readonly DocsRenderBlock[] }) {
  const onClick = followInternalLinks(useNavigate());
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks on the links inside; the links stay focusable and keyboard-operable.
    // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard activation of a link fires this same click event.
    <div className="docs-prose mt-8" onClick={onClick}>
      {blocks.map((block, index) =>
        block.kind === 'html' ? (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: blocks are static and never reordered.
            key={index}
            className="docs-html"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: build-time HTML compiled from our own Markdown.
            dangerouslySetInnerHTML={block.html === undefined ? KEEP_MARKUP : { __html: block.html }}
            suppressHydrationWarning
          />
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are static and never reordered.
          <CodeGroup key={index} tabs={block.tabs} />
        ),
      )}
    </div>
  );
}
