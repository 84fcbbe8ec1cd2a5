import { Link } from 'react-router';
import { PageFrame } from '~/components/layouts/page-frame';
import { type DocumentSection, LegalDocument } from '~/features/marketing/components/prose';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('GDPR', 'How Conductor complies with the EU General Data Protection Regulation and how to exercise your rights.', '/gdpr');

const SECTIONS: readonly DocumentSection[] = [
  {
    id: 'roles',
    title: 'Controller and processor',
    body: (
      <>
        <p>
          For your account, billing and the messages you send us, Conductor is the <strong>controller</strong>. For the requests your
          application sends through the gateway, you are the controller of any personal data they contain and Conductor acts as your{' '}
          <strong>processor</strong>: we pass the content to the model provider you route to and keep only usage metadata.
        </p>
        <p>
          Customers who need it can sign our data processing agreement (DPA), which includes the EU Standard Contractual Clauses. Ask for it
          at <a href="mailto:privacy@conductor.dev">privacy@conductor.dev</a>.
        </p>
      </>
    ),
  },
  {
    id: 'data-we-hold',
    title: 'Personal data we hold',
    body: (
      <>
        <ul>
          <li>
            Account data: name, e-mail address, plan and account state; an argon2id hash of your password; single sign-on identifiers and
            profile claims.
          </li>
          <li>Security data: hashed session tokens with the user agent and IP address of each session.</li>
          <li>Keys: hashes and masked forms of your Conductor API keys; your own provider keys encrypted with AES-256-GCM.</li>
          <li>Usage metadata for each request: time, key, provider, model, token counts, cost, latency and status.</li>
          <li>Billing records, support tickets with attachments, contact messages, and waitlist sign-ups.</li>
        </ul>
        <p>
          We do <strong>not</strong> store prompt or completion bodies. The full list, with purposes and retention, is in our{' '}
          <Link to="/privacy">privacy policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <ul>
        <li>
          <strong>Access and portability:</strong> get a copy of your data in a machine-readable format. Invoices can be downloaded from
          Billing at any time; ask us for a full export.
        </li>
        <li>
          <strong>Rectification:</strong> correct your name and e-mail in Settings, or ask us to correct anything else.
        </li>
        <li>
          <strong>Erasure:</strong> delete your account from Settings; this removes your profile, sessions, keys, provider keys and usage
          records. Invoices are kept, no longer tied to an account, as the law requires of billing records. Ask us to delete support
          messages or waitlist entries.
        </li>
        <li>
          <strong>Restriction and objection:</strong> ask us to pause or stop processing based on our legitimate interests.
        </li>
        <li>
          <strong>Withdraw consent:</strong> unsubscribe from updates at any time, with no effect on earlier processing.
        </li>
        <li>
          <strong>Complain:</strong> to the data protection authority where you live or work.
        </li>
      </ul>
    ),
  },
  {
    id: 'how-to-ask',
    title: 'How to make a request',
    body: (
      <p>
        Write to <a href="mailto:privacy@conductor.dev">privacy@conductor.dev</a> from the address on your account, or use our{' '}
        <Link to="/contact">contact form</Link>. We may ask you to confirm your identity. We answer within one month, and tell you if a
        complex request needs up to two more.
      </p>
    ),
  },
  {
    id: 'transfers',
    title: 'International transfers',
    body: (
      <p>
        When data leaves the European Economic Area, including when you route requests to providers based in the United States, the transfer
        relies on an adequacy decision such as the EU-US Data Privacy Framework where the recipient is certified, or on the EU Standard
        Contractual Clauses with supplementary measures.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'Security and breaches',
    body: (
      <p>
        We protect data with encryption in transit, hashing of passwords, tokens and keys, AES-256-GCM encryption of provider keys, and
        least-privilege access to production. If a personal data breach puts your rights at risk, we notify the supervisory authority within
        72 hours and tell affected customers without undue delay.
      </p>
    ),
  },
];

export default function Page() {
  return (
    <PageFrame wide eyebrow="Legal" title="GDPR" lead="Your rights under the GDPR and how we honour them.">
      <LegalDocument updated="March 2, 2026" sections={SECTIONS} />
    </PageFrame>
  );
}
