/**
 * The FAQ's categories and its search, without the questions (faq.ts): the support centre
 * loads these to filter its prerendered FAQ, and the questions only with the page's text.
 */

/** The spec's three FAQ categories (spec section 3, "FAQ item"). */
export const FAQ_CATEGORIES = ['Getting Started', 'Billing & Plans', 'Technical'] as const;
export type FaqCategory = (typeof FAQ_CATEGORIES)[number];

export interface FaqItem {
  question: string;
  answer: string;
  category: FaqCategory;
  /** Where to read more. */
  link?: { label: string; href: string };
}

/** Case-insensitive match of every word of `query` in the question or the answer. */
export function matchesFaq(item: FaqItem, query: string): boolean {
  const text = `${item.question} ${item.answer}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}
