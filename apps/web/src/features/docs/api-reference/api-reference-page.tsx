import { Lock, Unlock } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import reference from 'virtual:docs-api-reference';
import { DOCS_API_BASE_URL } from '@conductor/shared/constants/api-examples';
import { cn } from '~/lib/cn';
import { CodeGroup } from '../components/code-group';
import { DocsToc } from '../components/docs-toc';
import { API_REFERENCE_SLUG } from '../docs-registry';
import type { DocsHeading } from '../docs-types';
import type { ApiEndpoint, ApiField } from './reference-types';

const METHOD_STYLE: Record<string, string> = {
  GET: 'bg-success-soft text-success',
  POST: 'bg-accent text-accent-foreground',
  DELETE: 'bg-danger-soft text-danger',
};

/** OpenAPI descriptions use Markdown backticks for code; render those as <code>. */
function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`)/).map((part, index) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a static split of one string.
          <code key={index} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={cn(
        'inline-flex h-6 items-center rounded px-2 font-mono text-xs font-semibold',
        METHOD_STYLE[method] ?? 'bg-muted text-foreground',
      )}
    >
      {method}
    </span>
  );
}

function FieldTable({ title, fields }: { title: string; fields: ApiField[] }) {
  const titleId = useId();
  if (fields.length === 0) return null;
  return (
    <div className="mt-6">
      <h4 id={titleId} className="text-sm font-semibold">
        {title}
      </h4>
      {/* One card per field on a phone, like the guides' wide tables (docs.css). */}
      {/* biome-ignore-start lint/a11y/noRedundantRoles: the cards change the display, the explicit roles keep it a table for screen readers */}
      <div className="docs-table docs-table-stack mt-2">
        <table role="table" aria-labelledby={titleId}>
          <thead role="rowgroup">
            <tr role="row">
              <th role="columnheader" scope="col">
                Name
              </th>
              <th role="columnheader" scope="col">
                Type
              </th>
              <th role="columnheader" scope="col">
                Description
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {fields.map((field) => (
              <tr key={`${field.location}-${field.name}`} role="row">
                <td role="cell" data-label="Name" className="whitespace-nowrap">
                  <code>{field.name}</code>
                  {/* A space, not only a margin, so a screen reader says "model required", not "modelrequired". */}
                  {field.required && (
                    <>
                      {' '}
                      <span className="ml-0.5 text-xs text-danger">required</span>
                    </>
                  )}
                  {field.location !== 'body' && (
                    <>
                      {' '}
                      <span className="ml-0.5 text-xs text-muted-foreground">{field.location}</span>
                    </>
                  )}
                </td>
                <td role="cell" data-label="Type">
                  <code className="break-words">{field.type}</code>
                </td>
                <td role="cell" data-label="Description" className="text-muted-foreground">
                  {field.description ? <WithCode text={field.description} /> : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* biome-ignore-end lint/a11y/noRedundantRoles: see above */}
    </div>
  );
}

function Endpoint({ endpoint }: { endpoint: ApiEndpoint }) {
  return (
    <section id={endpoint.id} aria-labelledby={`${endpoint.id}-title`} className="scroll-mt-24 border-t border-border pt-10">
      <h3 id={`${endpoint.id}-title`} className="text-xl font-semibold tracking-tight">
        {endpoint.summary}
      </h3>
      <p className="mt-3 flex flex-wrap items-center gap-2">
        <MethodBadge method={endpoint.method} />
        <code className="font-mono text-sm break-all">{endpoint.path}</code>
        <span className="inline-flex items-center gap-1 rounded-full border border-border px-2 py-0.5 text-xs text-muted-foreground">
          {endpoint.authenticated ? <Lock className="size-3" aria-hidden /> : <Unlock className="size-3" aria-hidden />}
          {endpoint.authenticated ? 'API key required' : 'No API key needed'}
        </span>
      </p>
      {endpoint.description && (
        <p className="mt-3 leading-7 text-foreground/90">
          <WithCode text={endpoint.description} />
        </p>
      )}
      <FieldTable title="Parameters" fields={endpoint.parameters} />
      <FieldTable title="Request body" fields={endpoint.bodyFields} />
      <div className="mt-6">
        <h4 className="text-sm font-semibold">Responses</h4>
        <ul className="mt-2 space-y-1 text-sm">
          {endpoint.responses.map((response) => (
            <li key={response.status} className="flex gap-3">
              <code className={cn('font-mono', response.status.startsWith('2') ? 'text-success' : 'text-danger')}>{response.status}</code>
              <span className="text-muted-foreground">
                {response.description === 'Default Response' ? 'Success' : <WithCode text={response.description} />}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <CodeGroup tabs={endpoint.requestExamples} />
      {endpoint.responseExample && <CodeGroup tabs={[endpoint.responseExample]} />}
    </section>
  );
}

/**
 * /docs/api: every /v1 endpoint, rendered at build time from the server's own OpenAPI document.
 * Shown by `DocsArticle` like a section: the prerendered page keeps this markup when it
 * hydrates and loads neither this component nor the reference's data.
 */
export default function ApiReferencePage() {
  const headings: DocsHeading[] = reference.groups.flatMap((group) => [
    { id: `tag-${group.tag.toLowerCase()}`, text: group.tag, depth: 2 as const },
    ...group.endpoints.map((endpoint) => ({ id: endpoint.id, text: endpoint.summary, depth: 3 as const })),
  ]);
  return (
    <>
      <article className="min-w-0 max-w-[80ch]" data-docs-section={API_REFERENCE_SLUG}>
        <p className="text-sm font-semibold text-primary">API Reference</p>
        <h1 className="mt-1 text-3xl font-semibold tracking-tight sm:text-4xl">API Reference</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Every <code>/v1</code> endpoint of {reference.title} {reference.version}, generated from the OpenAPI 3.1 document the server
          publishes at{' '}
          <a className="text-primary underline decoration-1 underline-offset-4 hover:decoration-2" href="/v1/openapi.json">
            /v1/openapi.json
          </a>
          .
        </p>
        <div className="docs-prose mt-6">
          <p>
            Base URL: <code>{DOCS_API_BASE_URL}</code>. Authenticate with <code>Authorization: Bearer &lt;key&gt;</code>; errors use the
            OpenAI envelope <code>{'{"error":{"message","type","param","code"}}'}</code> described in{' '}
            <Link to="/docs/error-handling">Error Handling</Link>.
          </p>
        </div>
        {reference.groups.map((group) => (
          <section key={group.tag} aria-labelledby={`tag-${group.tag.toLowerCase()}`} className="mt-12">
            <h2 id={`tag-${group.tag.toLowerCase()}`} className="scroll-mt-24 text-2xl font-semibold tracking-tight">
              {group.tag}
            </h2>
            {group.description && (
              <p className="mt-2 text-muted-foreground">
                <WithCode text={group.description} />
              </p>
            )}
            <div className="mt-6 space-y-10">
              {group.endpoints.map((endpoint) => (
                <Endpoint key={endpoint.id} endpoint={endpoint} />
              ))}
            </div>
          </section>
        ))}
      </article>
      <DocsToc headings={headings} className="hidden xl:block" />
    </>
  );
}
