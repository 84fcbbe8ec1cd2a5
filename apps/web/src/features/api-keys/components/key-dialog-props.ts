import type { ApiKeyView } from '@conductor/shared/schemas/api-keys';

/** The rename and revoke dialogs: opened for one key from its row, closed by clearing it. */
export interface KeyDialogProps {
  apiKey: ApiKeyView | null;
  onClose: () => void;
  /** Opened from a row's button, not a Trigger: where focus goes once it has closed (call `preventDefault` to place it). */
  onCloseAutoFocus?: (event: Event) => void;
}
