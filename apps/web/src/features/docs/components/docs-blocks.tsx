import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import type { DocsBlock } from '../docs-types';
import { CodeGroup } from './code-group';

/**
 * The compiled Markdown of a section. Its HTML is our own build output; links to other
 * pages of the site are turned into client-side navigations.
 */
export function DocsBlocks({ blocks }: { blocks: DocsBlock[] }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!href?.startsWith('/') || href.startsWith('//') || anchor?.target) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks on the links inside; the links stay focusable and keyboard-operable.
    // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard activation of a link fires this same click event.
    <div className="docs-prose mt-8" onClick={onClick}>
      {blocks.map((block, index) =>
        block.kind === 'html' ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: build-time HTML compiled from our own Markdown.
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are static and never reordered.
          <div key={index} className="docs-html" dangerouslySetInnerHTML={{ __html: block.html }} />
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are static and never reordered.
          <CodeGroup key={index} tabs={block.tabs} />
        ),
      )}
    </div>
  );
}
