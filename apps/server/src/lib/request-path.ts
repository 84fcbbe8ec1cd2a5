/**
 * The path a request is routed by: the router decodes percent-escapes (`/%61pi/v1/keys` reaches
 * `/api/v1/keys`), so every decision about which part of the app a request belongs to (the
 * portal API's cookie and origin checks, the error envelope) reads the path as the router does,
 * not the raw URL. Undefined when the path's encoding is malformed (the router refuses those).
 */
export function routedPath(url: string): string | undefined {
  const query = url.indexOf('?');
  const raw = query === -1 ? url : url.slice(0, query);
  // Most requests carry no escape: the raw path is the routed one, with no decoding to pay for.
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
