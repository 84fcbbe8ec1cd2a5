declare module 'virtual:docs-descriptions' {
  const descriptions: Record<string, string>;
  export default descriptions;
}
declare module 'virtual:docs-search-index' {
  const entries: import('./docs-types').DocsIndexEntry[];
  export default entries;
}
declare module '*.md' {
  const page: import('./docs-types').DocsPageData;
  export default page;
}
declare module 'virtual:docs-api-reference' {
  const reference: import('./api-reference/reference-types').ApiReferenceData;
  export default reference;
}
