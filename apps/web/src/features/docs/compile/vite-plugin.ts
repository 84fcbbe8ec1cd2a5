import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';
import { compileDocsPage, toIndexEntry } from './markdown';
import { type CapturedExamples, compileApiReference, type OpenApiDocument } from './openapi-reference';

export const API_REFERENCE_MODULE = 'virtual:docs-api-reference';
const RESOLVED_API_REFERENCE = `\0${API_REFERENCE_MODULE}`;
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
 * with code highlighted by shiki (`?index` gives just its title and headings, for search and
 * navigation), and `virtual:docs-api-reference` is the API reference built from the server's
 * own OpenAPI document. The browser never downloads a Markdown parser or a highlighter.
 */
export function docsPlugin(): Plugin {
  return {
    name: 'conductor-docs',
    enforce: 'pre',
    resolveId(id) {
      return id === API_REFERENCE_MODULE ? RESOLVED_API_REFERENCE : undefined;
    },
    async load(id) {
      if (id === RESOLVED_API_REFERENCE) {
        const { document, examples } = await loadReferenceSource();
        return `export default ${JSON.stringify(await compileApiReference(document, examples))};`;
      }
      const [file = '', query] = id.split('?');
      if (!file.endsWith('.md') || !file.includes(CONTENT_DIRECTORY)) return undefined;
      this.addWatchFile(file);
      const slug = path.basename(file, '.md');
      const page = await compileDocsPage(slug, await readFile(file, 'utf8'));
      return `export default ${JSON.stringify(query === 'index' ? toIndexEntry(page) : page)};`;
    },
  };
}
