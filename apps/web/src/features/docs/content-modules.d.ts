declare module '*.md?index' {
  const entry: import('./docs-types').DocsIndexEntry;
  export default entry;
}
declare module '*.md' {
  const page: import('./docs-types').DocsPageData;
  export default page;
}
declare module 'virtual:docs-api-reference' {
  const reference: import('./api-reference/reference-types').ApiReferenceData;
  export default reference;
}
