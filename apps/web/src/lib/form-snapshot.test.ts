import { afterEach, describe, expect, it } from 'vitest';
import { restoreFormSnapshot, takeFormSnapshot } from './form-snapshot';

const FORM = `
  <form>
    <input id="name" name="name" />
    <select name="priority"><option value="low">Low</option><option value="high">High</option></select>
    <textarea name="description"></textarea>
    <input type="checkbox" name="urgent" />
    <button type="submit">Send</button>
  </form>`;

function mount(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('form snapshot', () => {
  it('carries values, the focused control and its caret from one form to another like it', () => {
    const kept = mount(FORM);
    kept.querySelector<HTMLInputElement>('#name')!.value = 'Ada';
    kept.querySelector<HTMLSelectElement>('select')!.value = 'high';
    kept.querySelector<HTMLInputElement>('[name="urgent"]')!.checked = true;
    const description = kept.querySelector<HTMLTextAreaElement>('textarea')!;
    description.value = 'Streams stop';
    description.focus();
    description.setSelectionRange(3, 5);
    const snapshot = takeFormSnapshot(kept);
    expect(snapshot).not.toBeNull();
    kept.remove();

    const live = mount(FORM);
    restoreFormSnapshot(live, snapshot!);
    expect(live.querySelector<HTMLInputElement>('#name')!.value).toBe('Ada');
    expect(live.querySelector<HTMLSelectElement>('select')!.value).toBe('high');
    expect(live.querySelector<HTMLInputElement>('[name="urgent"]')!.checked).toBe(true);
    const restored = live.querySelector<HTMLTextAreaElement>('textarea')!;
    expect(restored.value).toBe('Streams stop');
    expect(document.activeElement).toBe(restored);
    expect([restored.selectionStart, restored.selectionEnd]).toEqual([3, 5]);
  });

  it('finds a control by its id when the other form has more controls before it', () => {
    const kept = mount('<form><input id="subject" name="subject" /></form>');
    kept.querySelector('input')!.value = 'Billing';
    const snapshot = takeFormSnapshot(kept)!;
    kept.remove();
    const live = mount('<form><input id="name" name="name" /><input id="subject" name="subject" /></form>');
    restoreFormSnapshot(live, snapshot);
    expect(live.querySelector<HTMLInputElement>('#name')!.value).toBe('');
    expect(live.querySelector<HTMLInputElement>('#subject')!.value).toBe('Billing');
  });

  it('is null without a form', () => {
    expect(takeFormSnapshot(mount('<p>No form</p>'))).toBeNull();
  });
});
