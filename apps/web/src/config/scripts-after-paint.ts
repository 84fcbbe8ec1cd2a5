/** A module preload as React Router prerenders it. */
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"\/>/g;

/**
 * React Router's bootstrap is one inline module script whose static imports (and the module
 * preloads in <head>) start every script download while the document is parsed. On a
 * prerendered page that only delays the first paint on a slow connection, so the preloads are
 * dropped and the bootstrap becomes the same imports, done dynamically once the browser reports
 * the first contentful paint: the preloads are added then (every chunk still downloads in
 * parallel), the manifest is evaluated before the route modules, and the route modules before
 * the client entry, as before. A page that is not visible (it will not paint until shown) or a
 * browser without paint timing (or without PerformanceObserver) loads at once, and a page that
 * has not painted within 3 s loads anyway. React finds the preloads it renders already in <head>.
 */
export function loadScriptsAfterFirstPaint(html: string, file = 'page'): string {
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1] as string);
  const bootstrap = /<script type="module" async="">([^<]*)<\/script>/.exec(html);
  const body = bootstrap?.[1] ?? '';
  const manifest = /^import "([^"]+)";\n/.exec(body)?.[1];
  const routes = [...body.matchAll(/^import \* as (route\d+) from "([^"]+)";$/gm)].map((match) => ({
    name: match[1] as string,
    url: match[2] as string,
  }));
  const modules = /^\s*window\.__reactRouterRouteModules = (\{[^\n]*\});$/m.exec(body)?.[1];
  const entry = /^import\("([^"]+)"\);$/m.exec(body)?.[1];
  if (!bootstrap || !manifest || routes.length === 0 || !modules || !entry || preloads.length === 0)
    throw new Error(`${file}: unexpected React Router bootstrap script; update loadScriptsAfterFirstPaint`);
  const urls = JSON.stringify([...new Set([manifest, ...preloads, ...routes.map((route) => route.url), entry])]);
  const names = routes.map((route) => route.name).join(',');
  const imports = routes.map((route) => `import(${JSON.stringify(route.url)})`).join(',');
  const script =
    `const l=()=>{for(const h of ${urls}){const k=document.createElement("link");k.rel="modulepreload";k.href=h;document.head.append(k)}` +
    `import(${JSON.stringify(manifest)}).then(()=>Promise.all([${imports}])).then(([${names}])=>{window.__reactRouterRouteModules=${modules};return import(${JSON.stringify(entry)})})};` +
    `if(document.visibilityState!=="visible"||typeof PerformanceObserver>"u"||!PerformanceObserver.supportedEntryTypes?.includes("paint"))l();else{let d=0;const o=new PerformanceObserver((e)=>{if(e.getEntriesByName("first-contentful-paint").length)g()}),` +
    `g=()=>{if(!d){d=1;o.disconnect();l()}};o.observe({type:"paint",buffered:true});setTimeout(g,3e3)}`;
  return html.replace(MODULE_PRELOAD, '').replace(bootstrap[0], `<script type="module" async="">${script}</script>`);
}
