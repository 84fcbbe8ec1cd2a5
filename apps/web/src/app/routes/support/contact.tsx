import { ContactSupportPage } from '~/features/support/components/contact-support-page';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Contact Support',
    'Contact Conductor support: e-mail, live chat hours, response times and how to open a ticket.',
    '/support/contact',
  );

export default function SupportContact() {
  return <ContactSupportPage />;
}
