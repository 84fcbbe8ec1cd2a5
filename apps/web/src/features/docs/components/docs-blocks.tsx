import type { DocsBlock } from '../docs-types';
import { CodeGroup } from './code-group';

/** The compiled Markdown of a section: its HTML is our own build output. */
export function DocsBlocks({ blocks }: { blocks: readonly DocsBlock[] }) {
  return (
    <div className="docs-prose mt-8">
      {blocks.map((block, index) =>
        block.kind === 'html' ? (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: blocks are static and never reordered.
            key={index}
            className="docs-html"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: build-time HTML compiled from our own Markdown.
            dangerouslySetInnerHTML={{ __html: block.html }}
          />
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are static and never reordered.
          <CodeGroup key={index} tabs={block.tabs} />
        ),
      )}
    </div>
  );
}
