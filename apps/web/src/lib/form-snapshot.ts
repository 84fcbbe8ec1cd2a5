/**
 * What a visitor has done to a form so far: the values typed or chosen, the files picked,
 * the control with focus (and the caret in it). Taken from a prerendered form just before
 * the live one replaces it (see `PrerenderedForm`), and given to the live one, so that
 * loading the form's code while someone uses it loses nothing.
 */
export interface FormSnapshot {
  controls: ControlState[];
  /** Index in `form.elements` of the control with focus, or -1. */
  focused: number;
}

interface ControlState {
  tag: string;
  id: string;
  name: string;
  value: string;
  checked: boolean;
  files: FileList | null;
  selection: [number, number] | null;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement;

const controlsOf = (form: HTMLFormElement) => [...form.elements] as Control[];

/** The first form inside `root`, as the visitor left it. */
export function takeFormSnapshot(root: ParentNode): FormSnapshot | null {
  const form = root.querySelector('form');
  if (!form) return null;
  const controls = controlsOf(form);
  return {
    focused: controls.indexOf(document.activeElement as Control),
    controls: controls.map((control) => ({
      tag: control.tagName,
      id: control.id,
      name: control.name,
      value: control.value,
      checked: control instanceof HTMLInputElement && control.checked,
      files: control instanceof HTMLInputElement && control.type === 'file' ? control.files : null,
      selection: control === document.activeElement ? selectionOf(control) : null,
    })),
  };
}

/**
 * Puts `snapshot` into the first form inside `root`: each control is found by its id, else by
 * its name and position. Picked files are handed over with a `change` event, as if picked
 * there, so the form's own handler takes them. Focus (and the caret) go back where they were.
 */
export function restoreFormSnapshot(root: ParentNode, snapshot: FormSnapshot): void {
  const form = root.querySelector('form');
  if (!form) return;
  const controls = controlsOf(form);
  const find = (state: ControlState, index: number) =>
    controls.find((control) => state.id !== '' && control.id === state.id) ??
    [controls[index]].find((control) => control?.tagName === state.tag && control.name === state.name);
  snapshot.controls.forEach((state, index) => {
    const control = find(state, index);
    if (!control || control instanceof HTMLButtonElement) return;
    if (control instanceof HTMLInputElement && control.type === 'file') {
      if (state.files && state.files.length > 0) {
        control.files = state.files;
        control.dispatchEvent(new Event('change', { bubbles: true }));
      }
    } else if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) {
      control.checked = state.checked;
    } else if (control.value !== state.value) {
      control.value = state.value;
    }
  });
  const focused = snapshot.controls[snapshot.focused];
  const target = focused && find(focused, snapshot.focused);
  if (!focused || !target) return;
  target.focus();
  if (focused.selection && 'setSelectionRange' in target) {
    try {
      target.setSelectionRange(...focused.selection);
    } catch {
      // Inputs without a caret (e-mail, number) refuse a selection.
    }
  }
}

function selectionOf(control: Control): [number, number] | null {
  try {
    if ((control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) && control.selectionStart !== null)
      return [control.selectionStart, control.selectionEnd ?? control.selectionStart];
  } catch {
    // Inputs without a caret (e-mail, number) throw on reading it.
  }
  return null;
}
