import { type FaqCategory, matchesFaq } from '@conductor/shared/constants/faq-categories';

export type FaqFilter = FaqCategory | 'All';

/** Every question of a list, in its order, as first seen (the list itself shows only the matching ones). */
const allQuestions = new WeakMap<HTMLElement, HTMLElement[]>();

/**
 * Shows the FAQ's questions (`FaqQuestions`, prerendered) of `category` that match every word
 * of `query`, in their order; the others leave the list, as a re-render would remove them.
 * No match hides the list and shows the "No results found" message. Returns how many are shown (undefined while the questions have not arrived).
 */
export function filterFaq(root: HTMLElement, query: string, category: FaqFilter): number | undefined {
  const list = root.querySelector<HTMLElement>('ul[aria-label="Questions"]');
  const empty = root.querySelector<HTMLElement>('[data-faq-empty]');
  if (!list || !empty) return undefined;
  let questions = allQuestions.get(list);
  if (!questions) {
    questions = [...list.children] as HTMLElement[];
    allQuestions.set(list, questions);
  }
  const shown = questions.filter(
    (item) =>
      (category === 'All' || item.dataset.faqCategory === category) &&
      matchesFaq(
        { question: textOf(item, 'question'), answer: textOf(item, 'answer'), category: item.dataset.faqCategory as FaqCategory },
        query,
      ),
  );
  if (shown.length !== list.children.length || shown.some((item, index) => list.children[index] !== item)) list.replaceChildren(...shown);
  list.hidden = shown.length === 0;
  empty.hidden = shown.length > 0;
  return shown.length;
}

const textOf = (item: HTMLElement, part: 'question' | 'answer') => item.querySelector(`[data-faq-${part}]`)?.textContent ?? '';
