import { lazy, Suspense, useId, useState } from 'react';
import { FolderDown } from 'lucide-react';
import type { TRecipient } from '@shared/schemas/recipients';
import { Button } from '@web/components/ui/button';
import { useAuth } from '@web/lib/auth-provider';

// The dialog, the archive code and the passphrase checks load when someone opens it, not with the
// recipients page.
const HandoverDialog = lazy(() => import('./handover-dialog'));

interface HandoverButtonProps {
  recipient: TRecipient;
  /** Videos for this recipient on this device; none means there is nothing to save. */
  localVideoCount: number;
}

/**
 * 'Save videos for {firstName}': the recipient's open messages as plain files with a page that
 * plays them, to open on any computer without Memento (docs/decisions/016-backups-and-handover.md).
 * How a next of kin passes messages on from a Community Edition device.
 */
export function HandoverButton({ recipient, localVideoCount }: HandoverButtonProps) {
  const { user: owner } = useAuth();
  const hintId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const name = recipient.firstName;
  const hasVideos = localVideoCount > 0;

  return (
    <div className="flex flex-col gap-1">
      <Button
        variant="outline"
        onClick={() => setIsOpen(true)}
        disabled={!owner || !hasVideos}
        aria-describedby={hasVideos ? undefined : hintId}
      >
        <FolderDown aria-hidden="true" />
        {`Save videos for ${name}`}
      </Button>
      {!hasVideos && (
        <p id={hintId} className="text-base text-muted-foreground">
          No videos for {name} on this device yet.
        </p>
      )}
      {owner && isOpen && (
        <Suspense fallback={null}>
          <HandoverDialog owner={owner} recipient={recipient} onOpenChange={setIsOpen} />
        </Suspense>
      )}
    </div>
  );
}
