import type { PublicUser } from '@conductor/shared';
import { Button } from '~/components/ui/button';
import { KeysSummary } from './keys-summary';

/**
 * Step 2 on a return from the summary: the keys already saved (the form cannot show them, they are
 * only ever sent masked), that saving replaces them (spec), and a way on without saving again.
 */
export function SavedKeys({ keys, onContinue }: { keys: PublicUser['apiKeys']; onContinue: () => void }) {
  return (
    <section aria-labelledby="saved-keys-title" className="space-y-3 rounded-lg border border-border p-4">
      <h3 id="saved-keys-title" className="text-sm font-medium">
        Keys you saved
      </h3>
      <KeysSummary keys={keys} label="Saved provider keys" />
      <p className="text-sm text-muted-foreground">
        Save Keys replaces these keys with the ones entered below; a provider left empty keeps no key.
      </p>
      <Button variant="secondary" onClick={onContinue}>
        Continue with saved keys
      </Button>
    </section>
  );
}
