/** The contact form's topics, without zod: the /contact page renders them before it loads the form's schema (contact.ts). */
export const CONTACT_TOPICS = ['sales', 'partnerships', 'press', 'security', 'other'] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];
export const CONTACT_TOPIC_LABELS: Record<ContactTopic, string> = {
  sales: 'Sales and Enterprise plans',
  partnerships: 'Partnerships',
  press: 'Press and media',
  security: 'Security',
  other: 'Something else',
};
