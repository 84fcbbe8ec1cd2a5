import type { EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { prerender } from 'react-dom/static';

/** Build-time rendering only (ssr: false): prerenders public pages to static HTML. */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
): Promise<Response> {
  // Nothing streams at build time: every Suspense boundary is written in place (React would otherwise move
  // large ones into hidden segments revealed by an inline script, unreadable without JavaScript).
  const { prelude } = await prerender(<ServerRouter context={routerContext} url={request.url} />, {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  return new Response(prelude, { headers: responseHeaders, status: responseStatusCode });
}
