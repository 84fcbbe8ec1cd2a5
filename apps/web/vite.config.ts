import path from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { docsPlugin } from './src/features/docs/compile/vite-plugin';
import { CHUNK_GROUPS } from './src/config/chunks';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [lucideRuntime(), plainDynamicImports(), docsPlugin(), tailwindcss(), reactRouter()],
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/v1': 'http://127.0.0.1:8080', '/oidc': 'http://127.0.0.1:8080' } },
  build: {
    assetsInlineLimit: 0,
    // No preload helper around every lazy import: the chunks loaded on demand (islands, dialogs,
    // toasts, charts) depend on chunks the page already has, and the helper costs every page bytes.
    modulePreload: false,
    // The browser build only: a few chunks per page instead of one per shared module (see src/config/chunks.ts).
    ...(isSsrBuild ? {} : { rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } } }),
  },
}));

/**
 * lucide-react's icon modules import its `createLucideIcon` (with a context provider and an
 * attribute builder we never use); ours (src/components/ui/lucide-runtime.ts) renders the
 * same SVG in a fraction of the size. Applied to the browser and prerender builds alike, so
 * the markup matches. If lucide moves the file, icons fall back to its own runtime.
 */
function lucideRuntime(): Plugin {
  const runtime = path.resolve(import.meta.dirname, 'src/components/ui/lucide-runtime.ts');
  return {
    name: 'conductor:lucide-runtime',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '../createLucideIcon.mjs' && importer && /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/.test(importer))
        return runtime;
      return null;
    },
  };
}

/**
 * Vite wraps every `import()` of the browser build in a preload helper (0.7 KB gzip on every
 * page) that adds `<link>` tags for the chunk's CSS and dependencies. With `modulePreload`
 * off and no stylesheet imported by a lazily loaded module (route stylesheets come from the
 * React Router manifest), every call passes it an empty list, so it only forwards the import:
 * this helper does just that. The build warns if a lazily loaded chunk ever imports CSS.
 */
function plainDynamicImports(): Plugin {
  const helper = '\0vite/preload-helper.js';
  return {
    name: 'conductor:plain-dynamic-imports',
    enforce: 'pre',
    apply: 'build',
    load(id) {
      if (id === helper) return 'export const __vitePreload = (load) => load();';
      return null;
    },
    generateBundle(_options, bundle) {
      if (this.environment.name !== 'client') return;
      for (const chunk of Object.values(bundle)) {
        const routeModule = chunk.type === 'chunk' && /[\\/]src[\\/]app[\\/]/.test(chunk.facadeModuleId ?? '');
        if (chunk.type === 'chunk' && !routeModule && (chunk.viteMetadata?.importedCss.size ?? 0) > 0)
          this.warn(`${chunk.fileName} imports CSS; the plain dynamic-import helper would not load it`);
      }
    },
  };
}
