import { Link } from 'react-router';
import { PageFrame } from '~/components/layouts/page-frame';
import { type DocumentSection, LegalDocument } from '~/features/marketing/components/prose';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Privacy Policy',
    'How Conductor collects, uses and protects personal data: accounts, hashed API keys, encrypted provider keys and usage metadata, never prompt bodies.',
    '/privacy',
  );

const SECTIONS: readonly DocumentSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    body: (
      <p>
        Conductor, Inc. (“Conductor”, “we”) operates the Conductor gateway, the developer portal and this website. We are the controller of
        the personal data described here. You can reach us at <a href="mailto:privacy@conductor.dev">privacy@conductor.dev</a>.
      </p>
    ),
  },
  {
    id: 'what-we-store',
    title: 'What we store',
    body: (
      <>
        <p>We keep only what we need to run the service, bill for it and keep it secure:</p>
        <ul>
          <li>
            <strong>Your account:</strong> name, e-mail address, plan, whether the address is verified, whether onboarding is complete, and
            when the account was created. Your password is never stored: we keep only an argon2id hash of it.
          </li>
          <li>
            <strong>Single sign-on:</strong> if you sign in with Google, Microsoft, GitHub or our demo provider, we store the provider’s
            issuer and your subject identifier, and the profile claims it sends us (such as whether your e-mail is verified, a tenant id, a
            login name or an avatar URL).
          </li>
          <li>
            <strong>Sessions:</strong> a SHA-256 hash of your session token (never the token itself), your browser’s user agent and IP
            address, and when the session started, was last used and expires.
          </li>
          <li>
            <strong>Conductor API keys:</strong> the name, environment (live or test), permissions, a masked form (first 16 and last 4
            characters) and a hash. The full key is shown to you once and cannot be recovered from what we store.
          </li>
          <li>
            <strong>Provider keys you bring:</strong> your OpenAI, Anthropic, Google, Azure OpenAI, Mistral or Cohere keys, encrypted with
            AES-256-GCM under a key held by the server, plus a masked form for display. They are decrypted only to send your requests to
            that provider.
          </li>
          <li>
            <strong>Usage metadata:</strong> for each API request, when it happened, which of your keys made it, the provider and model,
            prompt and completion token counts, cost, latency, the status code and error type, and whether it was streamed. Daily totals are
            derived from these records.
          </li>
          <li>
            <strong>Billing:</strong> your plan, billing period and invoices (amounts and line items). We do not store payment card numbers.
          </li>
          <li>
            <strong>Messages you send us:</strong> support tickets and their attachments, and messages from our contact form, with the name
            and e-mail address you give.
          </li>
          <li>
            <strong>Waitlist and updates:</strong> the e-mail address you entered and which form you used.
          </li>
          <li>
            <strong>E-mail we send you:</strong> a record of transactional messages such as password-reset links and confirmations.
          </li>
          <li>
            <strong>Operational logs:</strong> request identifiers, paths, status codes, timings and IP addresses, kept for a short time to
            operate and secure the service.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'what-we-do-not-store',
    title: 'What we do not store',
    body: (
      <p>
        <strong>We do not store the content of your prompts or completions.</strong> When you call the gateway, the request body passes
        through memory on its way to the provider you route to, and the answer passes back to you the same way. Neither is written to our
        database or logs. We also do not use your content to train models.
      </p>
    ),
  },
  {
    id: 'model-providers',
    title: 'Model providers',
    body: (
      <p>
        To answer a request, its content must reach the model provider that serves it: OpenAI, Anthropic, Google, Microsoft (Azure OpenAI),
        Mistral or Cohere. With our hosted keys this happens under our agreements with those providers; with your own keys, under your
        agreement with them. Test keys are answered by a built-in sandbox and never leave Conductor.
      </p>
    ),
  },
  {
    id: 'how-we-use-data',
    title: 'How and why we use it',
    body: (
      <ul>
        <li>
          To provide the service you signed up for: authentication, routing, limits, usage dashboards and billing (performance of a
          contract).
        </li>
        <li>To keep the service secure and reliable: rate limiting, abuse prevention and incident investigation (legitimate interests).</li>
        <li>To answer your support and contact messages (legitimate interests, or steps before a contract).</li>
        <li>
          To send product updates you asked for through the waitlist or the “Stay updated” box (consent, which you can withdraw at any
          time).
        </li>
        <li>To meet legal obligations such as tax and accounting rules.</li>
      </ul>
    ),
  },
  {
    id: 'sharing',
    title: 'Who we share it with',
    body: (
      <p>
        We do not sell personal data. We share it only with service providers who help us run Conductor (hosting, database and e-mail
        delivery), bound by data processing agreements, with the model providers described above, and with authorities where the law
        requires it.
      </p>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <ul>
        <li>
          Account, keys and usage records: for as long as your account exists. Deleting your account removes your profile, sessions, API
          keys, provider keys and usage records. Invoices are kept, no longer tied to an account, because the law requires us to keep
          billing records; usage over your plan’s quota not yet billed is invoiced when you delete the account, and that invoice is e-mailed
          to you.
        </li>
        <li>
          Sessions end after a period of inactivity or at their fixed expiry; password-reset links expire after one hour and work once.
        </li>
        <li>
          Support tickets and contact messages: up to two years, so we can refer back to earlier conversations, unless you ask us to delete
          them sooner.
        </li>
        <li>Waitlist addresses: until launch communications end or you ask us to remove you.</li>
        <li>Service health checks contain no personal data and are kept for 90 days.</li>
      </ul>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        Traffic is encrypted in transit with TLS. Passwords are hashed with argon2id, session tokens and API keys are stored only as hashes,
        and provider keys are encrypted with AES-256-GCM. Session cookies are HttpOnly and SameSite, and state-changing requests are checked
        against their origin. Access to production systems is limited to the engineers who operate them.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <p>
        You can access, correct, export or delete your data, object to or restrict some processing, and withdraw consent. Much of this is
        self-service in the dashboard; for everything else, see our <Link to="/gdpr">GDPR page</Link> or write to{' '}
        <a href="mailto:privacy@conductor.dev">privacy@conductor.dev</a>. You can also complain to your data protection authority.
      </p>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies',
    body: (
      <p>
        We use one essential session cookie and a little local storage, and no advertising or analytics cookies. Details are in our{' '}
        <Link to="/cookies">cookie policy</Link>.
      </p>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: <p>Conductor is a service for developers and businesses and is not directed at children under 16.</p>,
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        If we change how we handle personal data, we will update this page and its date, and tell account holders by e-mail before a
        material change takes effect.
      </p>
    ),
  },
];

export default function Page() {
  return (
    <PageFrame wide eyebrow="Legal" title="Privacy Policy" lead="What we store, why, and the choices you have.">
      <LegalDocument updated="March 2, 2026" sections={SECTIONS} />
    </PageFrame>
  );
}
