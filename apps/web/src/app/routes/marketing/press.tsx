import { PageFrame } from '~/components/layouts/page-frame';
import { Prose } from '~/features/marketing/components/prose';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Press', 'Press resources, company facts, brand assets and media contacts for Conductor.', '/press');

const FACTS = [
  ['Company', 'Conductor, Inc.'],
  ['Product', 'An OpenAI-compatible LLM gateway and developer portal'],
  ['Providers', 'OpenAI, Anthropic, Google, Azure OpenAI, Mistral and Cohere'],
  ['Scale', '10M+ API calls routed; 20+ models across 6 providers'],
  ['Plans', 'Free, Pro ($29/month) and Enterprise ($199/month)'],
  ['Team', 'Remote-first, across North America and Europe'],
] as const;

export default function Page() {
  return (
    <PageFrame eyebrow="Company" title="Press" lead="Company facts, brand assets and media contacts.">
      <Prose>
        <h2>About Conductor</h2>
        <p>
          Conductor is an LLM gateway: one OpenAI-compatible API in front of the major model providers, with automatic failover, load
          balancing, cost-optimised routing, plan limits and metered usage. Development teams use it to keep AI features available when a
          provider struggles and to cut model spend by up to 40% without changing their code beyond the base URL.
        </p>
        <h2>Fact sheet</h2>
        <table>
          <caption className="sr-only">Company facts</caption>
          <tbody>
            {FACTS.map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>Brand assets</h2>
        <p>
          Please use our logo as supplied, on a plain background, without recolouring or distortion. Write the name as “Conductor” with a
          capital C.
        </p>
        <ul>
          <li>
            <a href="/brand/conductor-logo.svg" download>
              Conductor logo (SVG)
            </a>
          </li>
          <li>
            <a href="/brand/conductor-mark.svg" download>
              Conductor mark (SVG)
            </a>
          </li>
        </ul>
        <h2>Recent announcements</h2>
        <ul>
          <li>
            <strong>Cost-optimised routing.</strong> Conductor now sends each request to the cheapest healthy provider in the same quality
            class.
          </li>
          <li>
            <strong>Bring your own keys.</strong> Teams can route traffic on their own provider accounts, with keys encrypted with
            AES-256-GCM.
          </li>
          <li>
            <strong>Public status page.</strong> Live component state and 90 days of uptime history, generated from real health checks.
          </li>
        </ul>
        <h2>Media contact</h2>
        <p>
          For interviews, quotes and briefings write to <a href="mailto:press@conductor.dev">press@conductor.dev</a>. We answer press
          enquiries within one business day.
        </p>
      </Prose>
    </PageFrame>
  );
}
