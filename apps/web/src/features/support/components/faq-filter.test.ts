import { afterEach, describe, expect, it } from 'vitest';
import { filterFaq } from './faq-filter';

const item = (category: string, question: string, answer: string) =>
  `<li data-faq-category="${category}"><details><summary><span data-faq-question="">${question}</span></summary>` +
  `<p data-faq-answer="">${answer}</p><p><span>${category}</span></p></details></li>`;

function mount(): HTMLElement {
  const root = document.createElement('section');
  root.innerHTML =
    '<ul aria-label="Questions">' +
    item('Getting Started', 'What is Conductor?', 'An LLM gateway.') +
    item('Billing & Plans', 'How are tokens counted?', 'About 4 characters of English text equal 1 token.') +
    item('Billing & Plans', 'Can I change my plan?', 'Yes, with proration.') +
    '</ul><p data-faq-empty="" hidden>No results found</p>';
  document.body.append(root);
  return root;
}

const questions = (root: HTMLElement) => [...root.querySelectorAll('summary')].map((summary) => summary.textContent);
const empty = (root: HTMLElement) => root.querySelector<HTMLElement>('[data-faq-empty]')!.hidden === false;

afterEach(() => {
  document.body.innerHTML = '';
});

describe('filterFaq', () => {
  it('keeps the questions of the category that match every word, in order, and brings the others back', () => {
    const root = mount();
    expect(filterFaq(root, '', 'Billing & Plans')).toBe(2);
    expect(questions(root)).toEqual(['How are tokens counted?', 'Can I change my plan?']);
    expect(filterFaq(root, 'PRORATION', 'Billing & Plans')).toBe(1);
    expect(questions(root)).toEqual(['Can I change my plan?']);
    filterFaq(root, '', 'All');
    expect(questions(root)).toEqual(['What is Conductor?', 'How are tokens counted?', 'Can I change my plan?']);
    expect(empty(root)).toBe(false);
  });

  it('searches the question and the answer only, not the category label', () => {
    const root = mount();
    filterFaq(root, 'billing', 'All');
    expect(questions(root)).toEqual([]);
    filterFaq(root, 'gateway conductor', 'All');
    expect(questions(root)).toEqual(['What is Conductor?']);
  });

  it('has no count while the questions have not arrived (a client-side navigation loads them later)', () => {
    expect(filterFaq(document.createElement('section'), 'proration', 'All')).toBeUndefined();
  });

  it('hides the list and shows the message when nothing matches', () => {
    const root = mount();
    expect(filterFaq(root, '4 characters', 'Getting Started')).toBe(0);
    expect(empty(root)).toBe(true);
    expect(root.querySelector<HTMLElement>('ul')!.hidden).toBe(true);
    filterFaq(root, '4 characters', 'All');
    expect(empty(root)).toBe(false);
    expect(questions(root)).toEqual(['How are tokens counted?']);
  });
});
