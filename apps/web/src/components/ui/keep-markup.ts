/**
 * Keeps an element's prerendered children as they are: React never writes an empty string
 * over them. A module of its own (in the `app` chunk) so that a page using only this does
 * not load the public site's chunk.
 */
export const KEEP_MARKUP = { __html: '' } as const;
