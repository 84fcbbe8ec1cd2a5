import type { CodeTab } from '../docs-types';

/** The API reference page's data, compiled at build time from the server's OpenAPI document. */
export interface ApiField {
  name: string;
  /** `path`, `query`, `header` or `body`. */
  location: string;
  /** A short TypeScript-like rendering of the JSON schema (`string`, `"a" | "b"`, `Message[]`, …). */
  type: string;
  required: boolean;
  description: string;
}

export interface ApiResponse {
  status: string;
  description: string;
}

export interface ApiEndpoint {
  /** Anchor id, e.g. `post-v1-chat-completions`. */
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  /** Needs `Authorization: Bearer <key>`. */
  authenticated: boolean;
  parameters: ApiField[];
  bodyFields: ApiField[];
  responses: ApiResponse[];
  /** Request examples (cURL, JavaScript where it applies), highlighted. */
  requestExamples: CodeTab[];
  /** Example response body, highlighted. */
  responseExample: CodeTab | null;
}

export interface ApiTagGroup {
  tag: string;
  description: string;
  endpoints: ApiEndpoint[];
}

export interface ApiReferenceData {
  title: string;
  version: string;
  description: string;
  groups: ApiTagGroup[];
}
