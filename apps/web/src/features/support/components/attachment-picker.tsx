import { FileText, ImageIcon, Paperclip, X } from 'lucide-react';
import { useId, useRef } from 'react';
import { formatBytes } from '../attachments';
import { ATTACHMENT_MAX_FILES, ATTACHMENT_MAX_TOTAL_BYTES } from '@conductor/shared/schemas/support-options';

/** File input for PNG, JPG and PDF attachments, with the chosen files listed and removable. */
export function AttachmentPicker({
  files,
  error,
  disabled,
  onAdd,
  onRemove,
}: {
  files: File[];
  error: string | null;
  disabled: boolean;
  onAdd: (files: File[]) => void;
  onRemove: (index: number) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="text-sm font-medium leading-none">
        Attachments <span className="font-normal text-muted-foreground">(optional)</span>
      </label>
      <label
        htmlFor={id}
        // The input inside is visually hidden: the drop zone shows its keyboard focus.
        className="flex cursor-pointer flex-col items-center gap-1 rounded-md border border-dashed border-input px-4 py-5 text-center text-sm transition-colors hover:border-primary/60 hover:bg-muted/50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring"
      >
        <Paperclip className="size-5 text-muted-foreground" aria-hidden />
        <span className="font-medium text-primary">Choose files</span>
        <span className="text-xs text-muted-foreground">
          PNG, JPG or PDF, up to 10MB each ({ATTACHMENT_MAX_FILES} files, {ATTACHMENT_MAX_TOTAL_BYTES / 1024 / 1024}MB total)
        </span>
        <input
          ref={input}
          id={id}
          // Names the input for `FormSnapshot` (the form reads the files from state, not from the form data).
          name="attachments"
          type="file"
          multiple
          disabled={disabled}
          accept=".png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf"
          className="sr-only"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            onAdd(Array.from(event.target.files ?? []));
            // Allows choosing the same file again after removing it.
            if (input.current) input.current.value = '';
          }}
        />
      </label>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {files.length > 0 && (
        <ul className="space-y-1.5" aria-label="Attached files">
          {files.map((file, index) => (
            <li
              key={`${file.name}-${file.size}-${file.lastModified}`}
              className="flex items-center gap-2 rounded-md border border-border px-3 py-2 text-sm"
            >
              {file.type === 'application/pdf' ? (
                <FileText className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              ) : (
                <ImageIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              )}
              <span className="min-w-0 flex-1 truncate">{file.name}</span>
              <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{formatBytes(file.size)}</span>
              <button
                type="button"
                disabled={disabled}
                onClick={() => onRemove(index)}
                className="rounded p-1 text-muted-foreground hover:bg-muted hover:text-foreground"
                aria-label={`Remove ${file.name}`}
              >
                <X className="size-4" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
