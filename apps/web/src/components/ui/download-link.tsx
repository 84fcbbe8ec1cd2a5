import { type ComponentProps, useState } from 'react';
import { downloadFile } from '~/lib/download';
import { toastFailure } from '~/lib/toast-failure';

type DownloadLinkProps = Omit<ComponentProps<'a'>, 'href' | 'download' | 'onClick'> & {
  href: string;
  /** The file's name if the server gives none. */
  filename: string;
  /** The toast for a failure the client did not already announce. */
  failure: string;
};

/**
 * A link that downloads a portal file: it stays a link (its name, a new tab, "save link as"), but a
 * plain click fetches the file first, so an ended session or a server error is told the usual way
 * (the session-expired logout, the server-error toast, else a toast with the reason) instead of an
 * error body being saved as the file.
 */
export function DownloadLink({ href, filename, failure, children, ...props }: DownloadLinkProps) {
  const [busy, setBusy] = useState(false);
  return (
    <a
      {...props}
      href={href}
      download={filename}
      aria-busy={busy || undefined}
      onClick={async (event) => {
        // A click meant for the browser (another tab, a window) is left to it.
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        if (busy) return;
        setBusy(true);
        try {
          await downloadFile(href, filename);
        } catch (error) {
          toastFailure(error, failure);
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
    </a>
  );
}
