/** The shapes the docs compiler (build time) hands to the docs pages (run time). */
export interface CodeTab {
  /** Shiki language id (`javascript`, `bash`, `python`, `go`, `json`, …). */
  lang: string;
  /** Tab label: `JavaScript`, `cURL`, `Python`, … */
  label: string;
  /** The source, for the copy button. */
  code: string;
  /** Highlighted at build time: `<pre class="shiki">…</pre>`. */
  html: string;
}

export type DocsBlock = { kind: 'html'; html: string } | { kind: 'code'; tabs: CodeTab[] };

export interface DocsHeading {
  id: string;
  text: string;
  depth: 2 | 3;
}

/** One docs section's title and description (small, bundled eagerly: page titles, navigation). */
export interface DocsMetaEntry {
  slug: string;
  title: string;
  description: string;
}

/** One docs section's search data (every section's, loaded when the search box is used). */
export interface DocsIndexEntry extends DocsMetaEntry {
  headings: DocsHeading[];
}

/** One docs section's full content (loaded per section). */
export interface DocsPageData extends DocsIndexEntry {
  blocks: DocsBlock[];
}
