import { Link } from 'react-router';
import { PageFrame } from '~/components/layouts/page-frame';
import { type DocumentSection, LegalDocument } from '~/features/marketing/components/prose';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Cookie Policy',
    'The one session cookie and the local storage Conductor uses, and why. No advertising or analytics cookies.',
    '/cookies',
  );

const SECTIONS: readonly DocumentSection[] = [
  {
    id: 'summary',
    title: 'In short',
    body: (
      <p>
        Conductor sets <strong>one cookie</strong>, to keep you signed in, and keeps two small items in your browser’s local storage. We use
        no advertising, analytics or third-party tracking cookies, so there is no cookie banner to click through.
      </p>
    ),
  },
  {
    id: 'session-cookie',
    title: 'The session cookie',
    body: (
      <>
        <table>
          <caption className="sr-only">Cookie set by Conductor</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Purpose</th>
              <th scope="col">Lifetime</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>cc_session</code>
              </td>
              <td>Keeps you signed in to the dashboard. Holds a random token; we store only its hash.</td>
              <td>Until you close the browser, or up to 30 days if you tick “remember me”. Signing out ends it at once.</td>
            </tr>
          </tbody>
        </table>
        <p>
          The cookie is <strong>HttpOnly</strong> (page scripts cannot read it), <strong>SameSite=Lax</strong> (browsers do not send it with
          cross-site requests) and <strong>Secure</strong> when the site is served over HTTPS. It is strictly necessary for signing in, so
          it needs no consent; if you block it, you can still read the public pages but cannot use the dashboard.
        </p>
        <p>
          If you sign in with the Demo OIDC provider, the identity provider built into Conductor sets its own short-lived, HttpOnly cookies
          under the <code>/oidc</code> path while the sign-in completes.
        </p>
      </>
    ),
  },
  {
    id: 'local-storage',
    title: 'Local storage',
    body: (
      <>
        <table>
          <caption className="sr-only">Local storage used by Conductor</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">What it holds</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>conductor-theme</code>
              </td>
              <td>Your choice of light or dark theme, if you made one.</td>
            </tr>
            <tr>
              <td>
                <code>conductor-auth</code>
              </td>
              <td>
                A non-secret snapshot of your profile (name, e-mail, plan) and whether you are signed in, so the dashboard draws instantly.
                It contains no token or password: the session itself lives only in the HttpOnly cookie.
              </td>
            </tr>
          </tbody>
        </table>
        <p>
          Local storage stays in your browser and is never sent to us. Signing out removes the profile snapshot; you can clear both items at
          any time in your browser’s site settings.
        </p>
      </>
    ),
  },
  {
    id: 'questions',
    title: 'Questions',
    body: (
      <p>
        Our <Link to="/privacy">privacy policy</Link> explains what we store on our side. For anything else, write to{' '}
        <a href="mailto:privacy@conductor.dev">privacy@conductor.dev</a>.
      </p>
    ),
  },
];

export default function Page() {
  return (
    <PageFrame wide eyebrow="Legal" title="Cookie Policy" lead="The one cookie we set, and what we keep in your browser.">
      <LegalDocument updated="March 2, 2026" sections={SECTIONS} />
    </PageFrame>
  );
}
