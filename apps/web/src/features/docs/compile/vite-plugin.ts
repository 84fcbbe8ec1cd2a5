import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';
import { compileDocsPage, toIndexEntry } from './markdown';
import { type CapturedExamples, compileApiReference, type OpenApiDocument } from './openapi-reference';

export const API_REFERENCE_MODULE = 'virtual:docs-api-reference';
const RESOLVED_API_REFERENCE = `\0${API_REFERENCE_MODULE}`;
export const SEARCH_INDEX_MODULE = 'virtual:docs-search-index';
const RESOLVED_SEARCH_INDEX = `\0${SEARCH_INDEX_MODULE}`;
export const DESCRIPTIONS_MODULE = 'virtual:docs-descriptions';
const RESOLVED_DESCRIPTIONS = `\0${DESCRIPTIONS_MODULE}`;
const CONTENT_PATH = fileURLToPath(new URL('../content/', import.meta.url));
const CONTENT_DIRECTORY = `${path.sep}features${path.sep}docs${path.sep}content${path.sep}`;
const SERVER_SCRIPT = fileURLToPath(new URL('../../../../../server/src/modules/support/openapi-document.ts', import.meta.url));

let referenceSource: Promise<{ document: OpenApiDocument; examples: CapturedExamples }> | undefined;

/** Runs the server in-process (child Node, in-memory database) to get its OpenAPI document and example answers. */
function loadReferenceSource() {
  referenceSource ??= promisify(execFile)(process.execPath, [SERVER_SCRIPT], { maxBuffer: 64 * 1024 * 1024, env: {} })
    .then(({ stdout }) => JSON.parse(stdout))
    .catch((error: unknown) => {
      referenceSource = undefined;
      throw new Error(`The API reference needs the server's OpenAPI document, and ${SERVER_SCRIPT} failed: ${String(error)}`);
    });
  return referenceSource;
}

/**
 * Compiles the docs at build time: each `content/<slug>.md` becomes a module of HTML blocks
 * with code highlighted by shiki, `virtual:docs-descriptions` holds every section's
 * description (for the pages' head), `virtual:docs-search-index` the headings of every
 * section for the search box, and `virtual:docs-api-reference` is the API reference built
 * from the server's own OpenAPI document. The browser never downloads a Markdown parser or
 * a highlighter.
 */
export function docsPlugin(): Plugin {
  const compiled = new Map<string, { source: string; page: ReturnType<typeof compileDocsPage> }>();
  /** Each page compiles once per content change, whichever of its modules asks first. */
  const compile = async (file: string) => {
    const source = await readFile(file, 'utf8');
    let entry = compiled.get(file);
    if (entry?.source !== source) {
      entry = { source, page: compileDocsPage(path.basename(file, '.md'), source) };
      compiled.set(file, entry);
    }
    return entry.page;
  };
  return {
    name: 'conductor-docs',
    enforce: 'pre',
    resolveId(id) {
      if (id === API_REFERENCE_MODULE) return RESOLVED_API_REFERENCE;
      if (id === SEARCH_INDEX_MODULE) return RESOLVED_SEARCH_INDEX;
      if (id === DESCRIPTIONS_MODULE) return RESOLVED_DESCRIPTIONS;
      return undefined;
    },
    async load(id) {
      if (id === RESOLVED_API_REFERENCE) {
        const { document, examples } = await loadReferenceSource();
        return `export default ${JSON.stringify(await compileApiReference(document, examples))};`;
      }
      if (id === RESOLVED_SEARCH_INDEX || id === RESOLVED_DESCRIPTIONS) {
        const files = (await readdir(CONTENT_PATH)).filter((name) => name.endsWith('.md')).sort();
        const pages = await Promise.all(
          files.map((name) => {
            const file = path.join(CONTENT_PATH, name);
            this.addWatchFile(file);
            return compile(file);
          }),
        );
        const data =
          id === RESOLVED_SEARCH_INDEX ? pages.map(toIndexEntry) : Object.fromEntries(pages.map((page) => [page.slug, page.description]));
        return `export default ${JSON.stringify(data)};`;
      }
      const [file = ''] = id.split('?');
      if (!file.endsWith('.md') || !file.includes(CONTENT_DIRECTORY)) return undefined;
      this.addWatchFile(file);
      const page = await compile(file);
      return `export default ${JSON.stringify(page)};`;
    },
  };
}
