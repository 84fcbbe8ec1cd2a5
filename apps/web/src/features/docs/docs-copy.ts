import { TIMEOUTS_MS } from '@conductor/shared';

const COPIED = ['text-success', 'hover:text-success'];

/** Copies the code the button's block shows; the confirmation shows for 2 seconds (spec: copy confirmation 2 s). */
export async function copyShownCode(button: HTMLButtonElement): Promise<void> {
  const group = button.closest('[data-testid="code-block"]');
  const code = (group?.querySelector('[role="tabpanel"]:not([hidden]) pre') ?? group?.querySelector('.docs-code pre'))?.textContent ?? '';
  const copied = await copyText(code);
  const [idleIcon, copiedIcon] = button.querySelectorAll('svg');
  const text = button.querySelector('span');
  const show = (state: 'idle' | 'copied' | 'failed') => {
    button.setAttribute('aria-label', state === 'copied' ? 'Copied' : 'Copy code');
    for (const name of COPIED) button.classList.toggle(name, state === 'copied');
    idleIcon?.classList.toggle('hidden', state === 'copied');
    copiedIcon?.classList.toggle('hidden', state !== 'copied');
    if (text) text.textContent = state === 'copied' ? 'Copied!' : state === 'failed' ? 'Copy failed' : 'Copy';
  };
  show(copied ? 'copied' : 'failed');
  clearTimeout(Number(button.dataset.docsCopy));
  button.dataset.docsCopy = String(setTimeout(() => show('idle'), TIMEOUTS_MS.copyConfirmation));
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API unavailable (insecure context, denied permission): fall back to a selection copy.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}
